import { describe, expect, it } from 'vitest';
import { redactConnectionUrl } from './redact-connection-url.js';

describe('a connection URL fit to print', () => {
  it('hides the password of the user part and keeps the host, database and other parameters', () => {
    expect(redactConnectionUrl('postgres://app:s3cret@db.internal:5432/switchyard?sslmode=require')).toBe('postgres://app:***@db.internal:5432/switchyard?sslmode=require');
    expect(redactConnectionUrl('redis://:s3cret@cache:6379/0')).toBe('redis://:***@cache:6379/0');
  });

  it('hides every parameter naming a password, secret or token', () => {
    const printed = redactConnectionUrl('postgres://app@db/x?sslpassword=abc&client_secret=def&auth_token=ghi&sslmode=require');
    expect(printed).not.toMatch(/abc|def|ghi/);
    expect(printed).toContain('sslmode=require');
  });

  it('hides a password containing a slash, which no URL parser reads as one', () => {
    const printed = redactConnectionUrl('postgres://u:pa/ss@db/x');
    expect(printed).not.toContain('pa/ss');
    expect(printed).not.toContain('ss@');
    expect(printed).toContain('@db/x');
  });

  it('hides a password that a URL parser would take for a port and a path or a query', () => {
    for (const connectionString of ['postgres://u:12/ss@db/x', 'postgres://u:12?ss@db/x', 'postgres://u:12#ss@db/x', 'postgres://u:a@b/c@db/x']) {
      const printed = redactConnectionUrl(connectionString);
      expect(printed, connectionString).not.toMatch(/12|ss@|a@b|b\/c/);
      expect(printed, connectionString).toContain('@db/x');
    }
  });
});
