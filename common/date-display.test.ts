import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DATE_DISPLAY,
  dateDisplayOf,
  formatDay,
  formatInstant,
  formatTimeOfDay,
  instantOfWallTime,
  wallTimeOf,
  type DateDisplay,
} from './date-display.ts';

const berlin: DateDisplay = {
  dateFormat: 'DD.MM.YYYY',
  timeFormat: 'HH:mm',
  timeZone: 'Europe/Berlin',
};
const tokyoIso: DateDisplay = {
  dateFormat: 'YYYY-MM-DD',
  timeFormat: 'hh:mm A',
  timeZone: 'Asia/Tokyo',
};
const newYork: DateDisplay = {
  dateFormat: 'MM/DD/YYYY',
  timeFormat: 'HH:mm:ss',
  timeZone: 'America/New_York',
};

describe('the tenant date display', () => {
  it('formats with the tenant’s date and time formats', () => {
    expect(formatInstant(berlin, '2024-05-17T10:15:00Z')).toBe('17.05.2024 12:15');
    expect(formatInstant(tokyoIso, '2024-05-17T10:15:00Z')).toBe('2024-05-17 07:15 PM');
    expect(formatInstant(newYork, '2024-05-17T10:15:30Z')).toBe('05/17/2024 06:15:30');
    expect(formatTimeOfDay(berlin, '2024-01-17T10:15:00Z')).toBe('11:15');
  });

  it('shows a timestamp’s day in the tenant’s zone', () => {
    // 23:30 UTC is the next day in Berlin and Tokyo, the same day in New York.
    expect(formatDay(berlin, '2024-12-31T23:30:00Z')).toBe('01.01.2025');
    expect(formatDay(tokyoIso, '2024-12-31T23:30:00Z')).toBe('2025-01-01');
    expect(formatDay(newYork, '2024-12-31T23:30:00Z')).toBe('12/31/2024');
  });

  it('never shifts a date-only value or a UTC day with the time zone', () => {
    for (const display of [berlin, tokyoIso, newYork]) {
      expect(formatDay(display, '1980-02-29')).toBe(
        display === berlin ? '29.02.1980' : display === tokyoIso ? '1980-02-29' : '02/29/1980',
      );
      // A date-only value asked for with its time has no time to show: the day, unshifted.
      expect(formatInstant(display, '2025-01-01')).toBe(formatDay(display, '2025-01-01'));
      // A policy start: midnight UTC is still the evening before in New York.
      expect(formatDay(display, '2025-11-27T00:00:00.000Z', { utcDay: true })).toBe(
        formatDay(display, '2025-11-27'),
      );
    }
    expect(formatDay(newYork, '2025-11-27T00:00:00.000Z')).toBe('11/26/2025');
  });

  it('gives empty text for missing and invalid values', () => {
    expect(formatDay(berlin, null)).toBe('');
    expect(formatDay(berlin, '')).toBe('');
    expect(formatDay(berlin, 'nonsense')).toBe('');
    expect(formatDay(berlin, '2024-02-30')).toBe('');
    expect(formatInstant(berlin, undefined)).toBe('');
    expect(formatInstant(berlin, 'nope')).toBe('');
  });

  it('reads the general settings, the spec’s hh:mm:ss as a 24-hour clock', () => {
    expect(
      dateDisplayOf({
        format_dates: 'DD.MM.YYYY',
        format_hours: 'hh:mm:ss',
        time_zone: 'Europe/Berlin',
      }),
    ).toEqual({ dateFormat: 'DD.MM.YYYY', timeFormat: 'HH:mm:ss', timeZone: 'Europe/Berlin' });
    expect(dateDisplayOf({ format_hours: 'hh:mm A' }).timeFormat).toBe('hh:mm A');
    expect(dateDisplayOf({ time_zone: 'Mars/Olympus', format_dates: ' ' })).toEqual(
      DEFAULT_DATE_DISPLAY,
    );
    const display = dateDisplayOf({ format_hours: 'hh:mm:ss', time_zone: 'Europe/Berlin' });
    expect(formatInstant(display, '2024-07-01T13:05:09Z')).toBe('01.07.2024 15:05:09');
  });
});

describe('the wall time in a zone', () => {
  it('matches dayjs’s timezone plugin, across daylight-saving changes and zones off the hour', async () => {
    const { default: dayjs } = await import('dayjs');
    const { default: utc } = await import('dayjs/plugin/utc.js');
    const { default: timezone } = await import('dayjs/plugin/timezone.js');
    dayjs.extend(utc);
    dayjs.extend(timezone);
    const zones = [
      'UTC',
      'Europe/Berlin',
      'Europe/Warsaw',
      'America/New_York',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
      'America/St_Johns',
    ];
    // Every 7 633 minutes (five days and a bit, so the hours move) through 2024 and 2025 (both daylight-saving changes of each year), plus
    // instants just around Berlin's and New York's changes.
    const instants: string[] = [];
    for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2026, 0, 1); t += 7_633 * 60_000)
      instants.push(new Date(t).toISOString());
    instants.push('2025-03-30T00:59:59Z', '2025-03-30T01:00:00Z', '2025-10-26T00:59:59.999Z');
    instants.push('2025-03-09T06:59:59Z', '2025-03-09T07:00:00Z', '1965-06-01T12:34:56.789Z');
    for (const timeZone of zones) {
      const display: DateDisplay = { dateFormat: 'YYYY-MM-DD', timeFormat: 'HH:mm:ss', timeZone };
      for (const value of instants) {
        expect(formatInstant(display, value), `${value} in ${timeZone}`).toBe(
          dayjs.utc(value).tz(timeZone).format('YYYY-MM-DD HH:mm:ss'),
        );
      }
    }
    // dayjs's plugin takes milliseconds a call on a busy machine: the reason for the fast path.
  }, 120_000);
});

describe('date-time inputs in the tenant zone', () => {
  it('shows and reads back the wall time of the given zone, whatever the browser zone', () => {
    expect(wallTimeOf('2024-05-17T08:15:00.000Z', 'Europe/Berlin')).toBe('2024-05-17T10:15');
    expect(wallTimeOf('2024-05-17T08:15:00.000Z', 'America/New_York')).toBe('2024-05-17T04:15');
    expect(instantOfWallTime('2024-05-17T10:15', 'Europe/Berlin')).toBe('2024-05-17T08:15:00.000Z');
    expect(instantOfWallTime('2024-01-17T10:15', 'Europe/Warsaw')).toBe('2024-01-17T09:15:00.000Z');
    expect(instantOfWallTime('2024-05-17T04:15', 'America/New_York')).toBe(
      '2024-05-17T08:15:00.000Z',
    );
  });

  it('moves a skipped time an hour on and takes the second of a doubled one', () => {
    // Berlin, 31 March 2024: 02:00 CET became 03:00 CEST.
    expect(instantOfWallTime('2024-03-31T02:30', 'Europe/Berlin')).toBe('2024-03-31T01:30:00.000Z');
    expect(wallTimeOf('2024-03-31T01:30:00.000Z', 'Europe/Berlin')).toBe('2024-03-31T03:30');
    // 27 October 2024: 03:00 CEST became 02:00 CET, so 02:30 came twice.
    expect(instantOfWallTime('2024-10-27T02:30', 'Europe/Berlin')).toBe('2024-10-27T01:30:00.000Z');
    expect(instantOfWallTime('2024-10-27T01:59', 'Europe/Berlin')).toBe('2024-10-26T23:59:00.000Z');
  });

  it('refuses what is no wall time', () => {
    for (const wall of ['', '2024-05-17', '2024-02-30T10:00', '17.05.2024 10:15', '2024-05-17T10'])
      expect(instantOfWallTime(wall, 'Europe/Berlin'), wall).toBeNull();
    expect(wallTimeOf('', 'Europe/Berlin')).toBeUndefined();
    expect(wallTimeOf('not a date', 'Europe/Berlin')).toBeUndefined();
  });
});
