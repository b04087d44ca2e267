// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { PanelSettings } from '../../contract/admin-settings';
import { renderRoutes } from '../../test/render-routes';
import { json, stubFetch, type FetchCall } from '../../test/server-test-fixtures';
import { AdminSettingsPage } from './admin-settings-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const settings: PanelSettings = { panel_name: 'Aerie', require_two_factor: 'off', mail: null, mail_source: 'environment' };
const refusal = (status: number, detail: string, field?: string) =>
  json(status, {
    errors: [
      {
        code: status === 422 ? 'ValidationException' : 'DisplayException',
        status: String(status),
        detail,
        ...(field ? { meta: { source_field: field, rule: 'regex' } } : {}),
      },
    ],
  });

function stubPanel() {
  const calls: FetchCall[] = [];
  stubFetch((url, call) => {
    calls.push(call);
    if (url.pathname.endsWith('/mail/test')) return refusal(400, 'The mail server refused the username or password.');
    if (call.method === 'PATCH') {
      const body = call.body as { mail?: unknown; panel_name?: string };
      if (body.mail) return refusal(422, 'The host must be a host name or an IP address.', 'mail.host');
      return json(200, { object: 'settings', attributes: { ...settings, ...body } });
    }
    return json(200, { object: 'settings', attributes: settings });
  });
  return calls;
}

describe('AdminSettingsPage', () => {
  it('puts a mail field refusal under its field, and says why a test mail failed', async () => {
    const calls = stubPanel();
    renderRoutes([{ path: '/admin/settings', element: <AdminSettingsPage /> }], '/admin/settings');
    const mail = await screen.findByRole('region', { name: 'Mail' });
    expect(within(mail).getByText(/SMTP_URL from the environment/)).toBeInTheDocument();
    fireEvent.change(within(mail).getByLabelText('SMTP host'), { target: { value: 'smtp.example.com' } });
    fireEvent.change(within(mail).getByLabelText('From address'), { target: { value: 'panel@example.com' } });
    fireEvent.click(within(mail).getByRole('button', { name: 'Save mail settings' }));
    expect(await within(mail).findByText('The host must be a host name or an IP address.')).toBeInTheDocument();
    expect(within(mail).getByLabelText('SMTP host')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      mail: { host: 'smtp.example.com', port: 587, encryption: 'starttls', username: null, from_address: 'panel@example.com', from_name: null },
    });

    fireEvent.click(within(mail).getByRole('button', { name: 'Send test e-mail' }));
    expect(await within(mail).findByText('The mail server refused the username or password.')).toHaveAttribute('role', 'alert');
  });
});
