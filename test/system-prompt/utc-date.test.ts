// The system prompt's date, worked out without V8's Date (which first looks up the time zone).
import { describe, expect, it } from 'vitest';
import { utcDate } from '../../dist/plugins/system-prompt/utc-date.js';

const DAY_MS = 86_400_000;

describe('utcDate', () => {
  it("gives toISOString's date for every day from 1600 to 2400, at the day's first and last millisecond", () => {
    const wrong: string[] = [];
    for (let day = Math.floor(Date.UTC(1600, 0, 1) / DAY_MS); day <= Date.UTC(2400, 11, 31) / DAY_MS; day++) {
      const start = day * DAY_MS;
      const expected = new Date(start).toISOString().slice(0, 10);
      if (utcDate(start) !== expected || utcDate(start + DAY_MS - 1) !== expected) wrong.push(expected);
    }
    expect(wrong).toEqual([]);
  });

  it('handles leap days, century rules and the epoch', () => {
    expect(utcDate(Date.UTC(2000, 1, 29, 12))).toBe('2000-02-29');
    expect(utcDate(Date.UTC(1900, 1, 28, 23, 59))).toBe('1900-02-28');
    expect(utcDate(Date.UTC(1900, 2, 1))).toBe('1900-03-01');
    expect(utcDate(Date.UTC(2024, 1, 29))).toBe('2024-02-29');
    expect(utcDate(0)).toBe('1970-01-01');
    expect(utcDate(-1)).toBe('1969-12-31');
    expect(utcDate(Date.UTC(2026, 10, 28, 3, 50))).toBe('2026-11-28');
  });
});
