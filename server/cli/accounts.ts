import { ALL_GRANTS, createApiKey, deleteApiKey, grantWords, listApiKeys, parseGrants } from '../services/api-keys';
import { APPLICATION_RESOURCES } from '../../src/contract/endpoint';
import { endSessionsOf } from '../services/authentication';
import { changePassword, createUser, enableTotp, findUserByEmail } from '../services/users';
import { table, withText } from './table';
import { checkPassword, CliError, passwordFromStdin, required, str, userByEmail, userJson, type Command } from './options';

/** The admin CLI's commands about accounts: users, their passwords, 2FA, sessions and API keys. */
export const ACCOUNT_COMMANDS: Record<string, Command> = {
  'user:create': {
    options: {
      email: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      admin: { type: 'boolean' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
    async run(opts, { db, clock }) {
      const email = required(opts, 'email');
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new CliError(`--email must be an e-mail address, got "${email}".`, 2);
      const username = required(opts, 'username');
      const password = checkPassword(required(opts, 'password'), '--password');
      // createUser compares emails exactly; the unique index ignores case, so ask the same way first.
      if (await findUserByEmail(db, email)) throw new CliError(`A user with the email ${email} already exists.`);
      const user = await createUser(
        db,
        { email, username, password, admin: opts.admin === true, firstName: str(opts, 'first-name'), lastName: str(opts, 'last-name') },
        clock.now(),
      );
      return userJson(user);
    },
  },
  'user:password': {
    options: { email: { type: 'string' } },
    async run(opts, deps) {
      const user = await userByEmail(deps.db, required(opts, 'email'));
      const { sessionsEnded } = await changePassword(deps.db, user.id, passwordFromStdin(deps), deps.clock.now());
      return { ...userJson(user), sessions_ended: sessionsEnded };
    },
  },
  'user:2fa': {
    options: { email: { type: 'string' } },
    async run(opts, { db, box, clock }) {
      const user = await userByEmail(db, required(opts, 'email'));
      return enableTotp(db, box, user.id, clock.now());
    },
  },
  'session:revoke': {
    options: { email: { type: 'string' } },
    async run(opts, { db }) {
      const user = await userByEmail(db, required(opts, 'email'));
      return { email: user.email, sessions_ended: await endSessionsOf(db, user.id) };
    },
  },
  'apikey:create': {
    options: {
      email: { type: 'string' },
      description: { type: 'string' },
      'allowed-ips': { type: 'string' },
      application: { type: 'boolean' },
      permissions: { type: 'string' },
    },
    async run(opts, { db, clock }) {
      const user = await userByEmail(db, required(opts, 'email'));
      const allowed = (str(opts, 'allowed-ips') ?? '')
        .split(',')
        .map((ip) => ip.trim())
        .filter(Boolean);
      const application = opts.application === true;
      const named = str(opts, 'permissions');
      if (named !== undefined && !application) throw new CliError('--permissions is for application keys (--application).', 2);
      if (application && user.root_admin !== 1) throw new CliError(`${user.email} is not an admin: only admins hold application keys.`);
      const grants = named === undefined ? ALL_GRANTS : parseGrants(named);
      if (grants === null) {
        throw new CliError(`--permissions: resource:r, :w or :rw, comma separated; resources: ${APPLICATION_RESOURCES.join(', ')}.`, 2);
      }
      const kind = application ? ({ type: 'application', grants } as const) : ({ type: 'account' } as const);
      try {
        const key = await createApiKey(db, user.id, str(opts, 'description') ?? 'Created with the admin CLI', clock.now(), allowed, kind);
        return { token: key.token, identifier: key.identifier, allowed_ips: allowed, ...(application ? { permissions: grantWords(grants) } : {}) };
      } catch (error) {
        throw new CliError(`--allowed-ips: ${error instanceof Error ? error.message : String(error)}`, 2);
      }
    },
  },
  'apikey:list': {
    options: { email: { type: 'string' }, json: { type: 'boolean' } },
    async run(opts, { db }) {
      const user = await userByEmail(db, required(opts, 'email'));
      const keys = [...(await listApiKeys(db, user.id, 'account')), ...(await listApiKeys(db, user.id, 'application'))];
      const text = table(
        ['IDENTIFIER', 'KIND', 'DESCRIPTION', 'ALLOWED IPS', 'LAST USED', 'CREATED'],
        keys.map((k) => [
          k.identifier,
          k.key_type,
          k.description,
          k.allowed_ips.join(',') || 'every address',
          k.last_used_at ?? 'never',
          k.created_at,
        ]),
        `${user.email} has no API keys.`,
      );
      return withText({ email: user.email, keys }, opts.json === true ? undefined : text);
    },
  },
  'apikey:delete': {
    options: { identifier: { type: 'string' } },
    async run(opts, { db }) {
      const identifier = required(opts, 'identifier');
      if (!(await deleteApiKey(db, identifier))) throw new CliError(`No API key with identifier ${identifier}.`);
      return { deleted: identifier };
    },
  },
};
