import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestPanel, type TestPanel } from './harness';

describe('app skeleton', () => {
  let panel: TestPanel;
  beforeEach(async () => {
    panel = await makeTestPanel();
  });
  afterEach(async () => {
    await panel.close();
  });

  it('answers an unknown API route with a 404 error document', async () => {
    const res = await panel.app.inject({ method: 'GET', url: '/api/client/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ errors: [{ code: 'NotFoundHttpException', status: '404', detail: expect.any(String) }] });
  });

  it('answers malformed JSON with a 400 error document', async () => {
    const user = await panel.user();
    const headers = await panel.bearerHeaders(user);
    const res = await panel.app.inject({ method: 'POST', url: '/auth/logout', headers: { ...headers, 'content-type': 'application/json' }, payload: '{"a":' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].code).toBe('BadRequestHttpException');
  });

  it('creates servers with a primary allocation and a volume', async () => {
    const owner = await panel.user();
    const server = await panel.server(owner);
    expect(server.uuid_short).toBe(server.uuid.slice(0, 8));
    expect(server.allocation_id).not.toBeNull();
  });
});
