// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { json, makeServer, renderServerRoutes, serverDocument, stubFetch } from '../../test/server-test-fixtures';
import { allocationAddress } from './server-allocations-card';
import { featureLimit } from './server-resources-card';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function open(server = makeServer(), permissions = ['*'], owner = true, path = '/server/abcd1234/overview') {
  stubFetch(() => json(200, serverDocument(server, { is_server_owner: owner, user_permissions: permissions })));
  renderServerRoutes(path);
  await screen.findByRole('heading', { level: 1 });
}

function card(name: string) {
  return within(screen.getByRole('region', { name }));
}

describe('ServerOverviewPage', () => {
  it('shows SFTP address and username with copy buttons', async () => {
    await open();
    const sftp = card('SFTP');
    expect(sftp.getByText('sftp://node1.example.test:2022')).toBeInTheDocument();
    expect(sftp.getByText('dana.abcd1234')).toBeInTheDocument();
    expect(sftp.getByRole('button', { name: 'Copy address: sftp://node1.example.test:2022' })).toBeInTheDocument();
    expect(sftp.getByRole('button', { name: 'Copy username: dana.abcd1234' })).toBeInTheDocument();
  });

  it('says SFTP is unavailable when the node could not open its SFTP port (port 0), offering no address', async () => {
    await open(makeServer({ sftp_details: { ip: 'node1.example.test', port: 0 } }));
    const sftp = card('SFTP');
    expect(sftp.getByText(/SFTP is not available on this server.s node right now/)).toBeInTheDocument();
    expect(sftp.queryByText(/sftp:\/\//)).toBeNull();
    expect(sftp.queryByRole('link', { name: 'Open in SFTP client' })).toBeNull();
  });

  it('brings the SFTP card into view with focus when the URL asks for it (the command palette’s “SFTP details”)', async () => {
    // jsdom does not scroll.
    const original = Element.prototype.scrollIntoView;
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    try {
      await open(makeServer(), ['*'], true, '/server/abcd1234/overview?open=sftp');
      await vi.waitFor(() => expect(screen.getByRole('region', { name: 'SFTP' })).toHaveFocus());
      expect(scrolled).toHaveBeenCalledTimes(1);
    } finally {
      Element.prototype.scrollIntoView = original;
    }
  });

  it('links to an SFTP client with the username and to the account SSH keys', async () => {
    await open();
    const sftp = card('SFTP');
    expect(sftp.getByRole('link', { name: 'Open in SFTP client' })).toHaveAttribute('href', 'sftp://dana.abcd1234@node1.example.test:2022');
    expect(sftp.getByRole('link', { name: "your account's SSH keys" })).toHaveAttribute('href', '/account/ssh-keys');
  });

  it('explains missing SFTP access to a subuser without file.sftp', async () => {
    await open(makeServer({ server_owner: false }), ['file.read'], false);
    expect(card('SFTP').getByText(/may not use SFTP/)).toBeInTheDocument();
    expect(card('SFTP').getByRole('note')).toHaveTextContent('Needs the file.sftp permission');
    expect(card('SFTP').queryByText('dana.abcd1234')).not.toBeInTheDocument();
  });

  it('shows limits with units', async () => {
    await open();
    const resources = card('Limits');
    expect(resources.getByText('2 GiB')).toBeInTheDocument();
    expect(resources.getByText('10 GiB')).toBeInTheDocument();
    expect(resources.getByText('150%')).toBeInTheDocument();
    expect(resources.getByText('Any')).toBeInTheDocument();
    expect(resources.getByText('None allowed')).toBeInTheDocument();
  });

  it('says Unlimited for zero limits and "No description" for an empty one', async () => {
    await open(makeServer({ description: '', limits: { memory: 0, swap: -1, disk: 0, io: 500, cpu: 0, threads: '0-1', oom_disabled: true } }));
    expect(card('Limits').getAllByText('Unlimited').length).toBeGreaterThanOrEqual(4);
    expect(card('About').getByText('No description')).toBeInTheDocument();
  });

  it('lists allocations with the primary first and badged', async () => {
    await open();
    const items = card('Allocations').getAllByRole('listitem');
    expect(items[0]?.textContent).toContain('play.example.test:25565');
    expect(within(items[0] as HTMLElement).getByText('Primary')).toBeInTheDocument();
    expect(items[1]?.textContent).toContain('10.0.0.5:25566');
    expect(items[1]?.textContent).toContain('Query port');
  });

  it('links the allocations to the Network page only for members who may read it', async () => {
    await open();
    expect(card('Allocations').getByRole('link', { name: 'Manage' })).toHaveAttribute('href', '/server/abcd1234/network');
    cleanup();
    await open(makeServer({ server_owner: false }), ['file.read'], false);
    expect(card('Allocations').queryByRole('link', { name: 'Manage' })).toBeNull();
  });

  it('shows the invocation and image', async () => {
    await open();
    expect(card('Startup').getByText('java -Xms128M -Xmx2048M -jar server.jar')).toBeInTheDocument();
    expect(card('Startup').getByText('ghcr.io/pterodactyl/yolks:java_17')).toBeInTheDocument();
  });
});

describe('helpers', () => {
  it('formats allocation addresses', () => {
    expect(allocationAddress({ ip: '10.0.0.1', ip_alias: null, port: 1 })).toBe('10.0.0.1:1');
    expect(allocationAddress({ ip: '10.0.0.1', ip_alias: '', port: 1 })).toBe('10.0.0.1:1');
    expect(allocationAddress({ ip: '::1', ip_alias: null, port: 2 })).toBe('[::1]:2');
  });

  it('reads feature limits', () => {
    expect(featureLimit(null)).toBe('Unlimited');
    expect(featureLimit(0)).toBe('None allowed');
    expect(featureLimit(3)).toBe('3');
  });
});
