import { describe, expect, it } from 'vitest';
import { storageRefusalCode } from './documents-client.ts';

describe('storageRefusalCode', () => {
  it('reads the storage’s S3 code and the BFF’s JSON error alike', () => {
    expect(
      storageRefusalCode(
        '<?xml version="1.0"?><Error><Code>EntityTooSmall</Code><Message>x</Message></Error>',
      ),
    ).toBe('EntityTooSmall');
    expect(
      storageRefusalCode('{"error":"payload_too_large","message":"The upload is too large."}'),
    ).toBe('payload_too_large');
  });

  it('falls back to storage_error for an answer of neither kind', () => {
    expect(storageRefusalCode('')).toBe('storage_error');
    expect(storageRefusalCode('<html>Bad gateway</html>')).toBe('storage_error');
    expect(storageRefusalCode('{"message":"no code"}')).toBe('storage_error');
    expect(storageRefusalCode('null')).toBe('storage_error');
  });
});
