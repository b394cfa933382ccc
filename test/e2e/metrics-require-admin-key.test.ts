import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertKey } from '../support/admin-keys.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * A configuration written for the former `metrics.require_admin_key: true` still starts: it asked
 * for what every gateway now does, so the gateway says the switch is deprecated and keeps
 * `/metrics` behind an admin key.
 */

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway({ metrics: { require_admin_key: true } });
});

afterAll(async () => {
  await gateway.close();
});

describe('the former metrics.require_admin_key: true', () => {
  it('starts the gateway with a deprecation warning naming metrics.public', () => {
    const warning = gateway
      .logs()
      .split('\n')
      .find((line) => line.includes('require_admin_key'));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning ?? '{}')).toMatchObject({ level: 40 });
    expect(warning).toContain('deprecated');
    expect(warning).toContain('metrics.public');
  });

  it('keeps /metrics behind an admin key', async () => {
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(401);
    const user = await insertKey(gateway.services.storage, 'user', false);
    expect((await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${user.secret}` } })).status).toBe(403);
    const admin = await insertKey(gateway.services.storage, 'admin', true);
    expect((await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${admin.secret}` } })).status).toBe(200);
  });
});
