// A run without telemetry never loads the OpenTelemetry SDK (a few hundred modules at start-up).
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestKernel, type TestKernel } from '../../dist/config/test-kit.js';

const sdkModules = () => Object.keys(createRequire(import.meta.url).cache).filter((file) => /@opentelemetry[\\/](sdk-metrics|exporter-metrics-otlp-http)[\\/]/.test(file));

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
});

describe('telemetry-otlp start-up cost', () => {
  it('loads the SDK only once an endpoint turns telemetry on', async () => {
    t = await createTestKernel({ builtins: ['telemetry-otlp'] });
    await t.kernel.start();
    expect(t.kernel.plugins.map((p) => p.name)).toContain('telemetry-otlp');
    expect(sdkModules()).toEqual([]);
    await t.close();

    // Port 9 (discard) on loopback: the final export fails fast and is only warned about.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:9';
    t = await createTestKernel({ builtins: ['telemetry-otlp'] });
    await t.kernel.start();
    expect(sdkModules().length).toBeGreaterThan(0);
  });
});
