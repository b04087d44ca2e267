// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Server } from '../../contract/servers';
import type { EggVariable } from '../../contract/startup';
import { json, makeServer, renderServerRoutes, serverDocument } from '../../test/server-test-fixtures';
import { previewCommand } from './preview';
import { StartupPage } from './startup-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const RAW = 'java -Xmx{{SERVER_MEMORY}}M -jar {{SERVER_JARFILE}} --mode {{MODE}} --pvp {{PVP}} --seed {{SECRET}}';

function variable(overrides: Partial<EggVariable>): EggVariable {
  return { name: 'X', description: '', env_variable: 'X', default_value: '', server_value: '', is_editable: true, rules: 'string', ...overrides };
}

const VARIABLES = [
  variable({
    name: 'Server Jar File',
    env_variable: 'SERVER_JARFILE',
    server_value: 'server.jar',
    rules: 'required|regex:/^([\\w\\d._-]+)(\\.jar)$/',
  }),
  variable({ name: 'Game mode', env_variable: 'MODE', server_value: 'survival', rules: 'required|in:survival,creative' }),
  variable({ name: 'PvP', env_variable: 'PVP', server_value: '0', rules: 'required|boolean' }),
  variable({ name: 'Build', env_variable: 'BUILD', server_value: 'latest', is_editable: false }),
];

function fill(values: Record<string, string>): string {
  return `java -Xmx2048M -jar ${values.SERVER_JARFILE} --mode ${values.MODE} --pvp ${values.PVP} --seed [hidden]`;
}

/** The panel's answers: the server, its startup list, and PUT startup/variable through `onPut`. */
function stubPanel(
  permissions: string[],
  onPut: (body: { key: string; value: string }) => Response = okPut,
  images: Record<string, string> = { 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' },
  variables: EggVariable[] = VARIABLES,
  server: Partial<Server> = {},
) {
  const puts: { key: string; value: string }[] = [];
  const fetch = vi.fn((input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    if (url.pathname.endsWith('/settings/docker-image') && init?.method === 'PUT') {
      puts.push({ key: 'docker_image', value: (JSON.parse(String(init.body)) as { docker_image: string }).docker_image });
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    if (url.pathname.endsWith('/startup/variable') && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as { key: string; value: string };
      puts.push(body);
      return Promise.resolve(onPut(body));
    }
    if (url.pathname.endsWith('/startup')) {
      const values = Object.fromEntries(variables.map((v) => [v.env_variable, v.server_value ?? '']));
      return Promise.resolve(
        json(200, {
          object: 'list',
          data: variables.map((attributes) => ({ object: 'egg_variable', attributes })),
          meta: { startup_command: fill(values), raw_startup_command: RAW, docker_images: images },
        }),
      );
    }
    const owner = permissions.includes('*');
    return Promise.resolve(
      json(200, serverDocument(makeServer({ server_owner: owner, ...server }), { is_server_owner: owner, user_permissions: permissions })),
    );
  });
  vi.stubGlobal('fetch', fetch);
  return puts;
}

function okPut(body: { key: string; value: string }): Response {
  const v = VARIABLES.find((x) => x.env_variable === body.key) ?? variable({});
  return json(200, {
    object: 'egg_variable',
    attributes: { ...v, server_value: body.value },
    meta: { startup_command: 'from the server', raw_startup_command: RAW },
  });
}

async function open(
  permissions = ['*'],
  onPut?: (body: { key: string; value: string }) => Response,
  images?: Record<string, string>,
  variables?: EggVariable[],
  server?: Partial<Server>,
) {
  const puts = stubPanel(permissions, onPut, images, variables, server);
  renderServerRoutes('/server/abcd1234/startup', { startup: () => <StartupPage /> });
  await screen.findByRole('heading', { name: 'Startup', level: 2 });
  return puts;
}

const preview = () => screen.getByLabelText('Startup command preview').textContent;
const field = (name: string) => within(screen.getByRole('group', { name }));

describe('StartupPage', () => {
  it('on Aerie’s node, says the image is not used, which host program runs, and what the Paper egg leaves to the user', async () => {
    const images = { 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21', 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' };
    await open(['*'], undefined, images, undefined, { aerie_runtime: { program: 'java', program_path: null, installs_files: false } });
    const card = within(screen.getByRole('region', { name: 'What it runs with' }));
    expect(card.getByText('This machine has no java, so the server cannot start until an administrator installs it.')).toBeInTheDocument();
    expect(
      card.getByText(
        'Installing this server downloads nothing: upload server.jar, the file its startup command runs, to its files before starting it.',
      ),
    ).toBeInTheDocument();
    expect(card.getByText(/does not run container images yet/)).toBeInTheDocument();
    // The image picker no longer claims the server runs in the image.
    expect(screen.queryByText(/Image the server runs in/)).toBeNull();
    expect(screen.getByRole('combobox', { name: /this node does not use it yet/ })).toBeInTheDocument();
  });

  it('against a real panel (no runtime extra), keeps the image as what the server runs in', async () => {
    const images = { 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21', 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' };
    await open(['*'], undefined, images);
    expect(screen.queryByRole('region', { name: 'What it runs with' })).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Image the server runs in; a change applies at its next start.' })).toBeInTheDocument();
  });

  it('shows the command with values filled in, hidden ones kept hidden', async () => {
    await open();
    expect(preview()).toBe('java -Xmx2048M -jar server.jar --mode survival --pvp 0 --seed [hidden]');
  });

  it('updates the preview as a value is typed, and saves it once typing pauses', async () => {
    const puts = await open();
    const input = screen.getByRole('textbox', { name: 'Server Jar File' });
    fireEvent.change(input, { target: { value: 'pap' } });
    fireEvent.change(input, { target: { value: 'paper.jar' } });
    expect(preview()).toBe('java -Xmx2048M -jar paper.jar --mode survival --pvp 0 --seed [hidden]');
    expect(puts).toEqual([]);
    expect(await field('Server Jar File').findByText('Saved', {}, { timeout: 2000 })).toBeInTheDocument();
    // One save for the pause, with the last value.
    expect(puts).toEqual([{ key: 'SERVER_JARFILE', value: 'paper.jar' }]);
  });

  it('leaving the page before the pause ends still saves what was typed', async () => {
    const puts = await open();
    fireEvent.change(screen.getByRole('textbox', { name: 'Server Jar File' }), { target: { value: 'paper.jar' } });
    cleanup();
    // At once, not when the pause would have ended.
    await waitFor(() => expect(puts).toEqual([{ key: 'SERVER_JARFILE', value: 'paper.jar' }]), { timeout: 300 });
  });

  it("shows the server's message under the field that failed, and only there", async () => {
    await open(['*'], (body) =>
      json(422, {
        errors: [
          { code: 'ValidationException', status: '422', detail: 'Server Jar File is not in the required format.', source: { field: body.key } },
        ],
      }),
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Server Jar File' }), { target: { value: 'server.zip' } });
    expect(preview()).toBe('java -Xmx2048M -jar server.zip --mode survival --pvp 0 --seed [hidden]');
    expect(await field('Server Jar File').findByRole('alert', {}, { timeout: 2000 })).toHaveTextContent(
      'Server Jar File is not in the required format.',
    );
    expect(screen.getByRole('textbox', { name: 'Server Jar File' })).toHaveAttribute('aria-invalid', 'true');
    // The refused value does not run: the preview shows the saved one again, the field keeps the text to fix.
    expect(preview()).toBe('java -Xmx2048M -jar server.jar --mode survival --pvp 0 --seed [hidden]');
    expect(screen.getByRole('textbox', { name: 'Server Jar File' })).toHaveValue('server.zip');
    // Typing again clears the refusal until the next answer.
    fireEvent.change(screen.getByRole('textbox', { name: 'Server Jar File' }), { target: { value: 'server.zi' } });
    expect(field('Server Jar File').queryByRole('alert')).not.toBeInTheDocument();
    expect(field('Game mode').queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a switch for a boolean rule and a select for an in: rule, each saved at once', async () => {
    const puts = await open();
    const pvp = screen.getByRole('switch', { name: 'PvP' });
    expect(pvp).toHaveAttribute('aria-checked', 'false');
    fireEvent.click(pvp);
    expect(pvp).toHaveAttribute('aria-checked', 'true');
    const mode = screen.getByRole('combobox', { name: 'Game mode' });
    expect(
      within(mode)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['survival', 'creative']);
    fireEvent.change(mode, { target: { value: 'creative' } });
    expect(preview()).toBe('java -Xmx2048M -jar server.jar --mode creative --pvp 1 --seed [hidden]');
    await waitFor(() =>
      expect(puts).toEqual([
        { key: 'PVP', value: '1' },
        { key: 'MODE', value: 'creative' },
      ]),
    );
    expect(await field('PvP').findByText('Saved')).toBeInTheDocument();
  });

  it('badges a locked variable read-only', async () => {
    await open();
    expect(field('Build').getByText('Read only')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Build' })).toHaveAttribute('readonly');
    expect(field('Server Jar File').queryByText('Read only')).not.toBeInTheDocument();
  });

  it('shows a read-only value in the normal text colour, never in the placeholder grey', async () => {
    await open(['startup.read']);
    const colours = (element: HTMLElement) => {
      const classes = [...element.classList];
      return {
        value: classes.filter((c) => /^(disabled:)?text-(zinc|white)/.test(c)),
        placeholder: classes.filter((c) => c.startsWith('placeholder:text-')),
      };
    };
    expect(colours(screen.getByRole('textbox', { name: 'Build' }))).toEqual({ value: ['text-zinc-100'], placeholder: ['placeholder:text-zinc-400'] });
    expect(colours(screen.getByRole('combobox', { name: 'Game mode' })).value).toEqual(['text-zinc-100']);
    expect(screen.getByRole('textbox', { name: 'Build' })).toHaveValue('latest');
    expect(field('Build').getByText('Read only')).toBeInTheDocument();
  });

  it('shows everything read-only to a subuser with only startup.read', async () => {
    await open(['startup.read']);
    for (const name of ['Server Jar File', 'Game mode', 'PvP', 'Build']) expect(field(name).getByText('Read only')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Server Jar File' })).toHaveAttribute('readonly');
    expect(screen.getByRole('combobox', { name: 'Game mode' })).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'PvP' })).toBeDisabled();
    // One hint for the page, describing each read-only field.
    expect(screen.getAllByRole('note')).toHaveLength(1);
    expect(screen.getByRole('textbox', { name: 'Server Jar File' })).toHaveAccessibleDescription(/Needs the startup\.update permission$/);
  });
});

describe('the image select', () => {
  const IMAGES = { 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21', 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' };

  it('is not there when the egg has one image', async () => {
    await open();
    expect(screen.queryByRole('combobox', { name: /Image the server runs in/ })).not.toBeInTheDocument();
  });

  it("offers the egg's images and saves the one chosen", async () => {
    const puts = await open(['*'], undefined, IMAGES);
    const select = screen.getByRole('combobox', { name: /Image the server runs in/ });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Java 21 (ghcr.io/pterodactyl/yolks:java_21)', 'Java 17 (ghcr.io/pterodactyl/yolks:java_17)']);
    fireEvent.change(select, { target: { value: 'ghcr.io/pterodactyl/yolks:java_17' } });
    await waitFor(() => expect(puts).toEqual([{ key: 'docker_image', value: 'ghcr.io/pterodactyl/yolks:java_17' }]));
  });

  it('is read-only without startup.docker-image', async () => {
    await open(['startup.read'], undefined, IMAGES);
    const select = screen.getByRole('combobox', { name: /Image the server runs in/ });
    expect(select).toBeDisabled();
    expect(select).toHaveAccessibleDescription('Needs the startup.docker-image permission');
  });
});

describe('previewCommand', () => {
  it('fills the variables it is given and keeps what the panel filled for the rest', () => {
    expect(previewCommand('a {{X}} b {{Y}} c', 'a 1 b [hidden] c', { X: '2' })).toBe('a 2 b [hidden] c');
    expect(previewCommand('{{X}}{{Y}}', '12', { Y: '3' })).toBe('3');
    expect(previewCommand('run {{Z}}', 'something else', {})).toBe('run {{Z}}');
    expect(previewCommand('x $& {{A}}', 'x $& 1', { A: '$1' })).toBe('x $& $1');
  });
});

// attacks T-XSS-2: egg variables and images come from the panel (an admin's egg, or what a node reported) and stay text.
describe('hostile egg data', () => {
  it('shows variable names, descriptions, values, rules and image names literally', async () => {
    const p = '<img src=x onerror=alert(1)>';
    const hostile = [
      variable({ name: `${p} name`, description: `${p} description`, env_variable: 'HOSTILE', server_value: `${p} value`, default_value: p }),
      variable({ name: 'Mode', env_variable: 'MODE', server_value: '<b>x</b>', rules: 'required|in:<b>x</b>,<svg/onload=alert(1)>' }),
    ];
    await open(['*'], undefined, { [p]: `${p}:latest`, 'Java 17': 'ghcr.io/pterodactyl/yolks:java_17' }, hostile);
    expect(screen.getByText(`${p} description`)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: `${p} name` })).toHaveValue(`${p} value`);
    expect(screen.getByRole('combobox', { name: /Image the server runs in/ })).toHaveTextContent(`${p} (${p}:latest)`);
    expect(document.querySelectorAll('img[src="x"], b, [onerror], [onload]')).toHaveLength(0);
  });
});
