/** All SQL of the panel, one module per table family; services call these, never Kysely directly. */
export * as activity from './activity';
export * as allocations from './allocations';
export * as applicationServers from './application-servers';
export * as apiKeys from './api-keys';
export * as backups from './backups';
export * as databaseHosts from './database-hosts';
export * as eggs from './eggs';
export * as nodes from './nodes';
export * as passwordResets from './password-resets';
export * as serverDatabases from './server-databases';
export * as schedules from './schedules';
export * as servers from './servers';
export * as serverTransfers from './server-transfers';
export * as sessions from './sessions';
export * as sshKeys from './ssh-keys';
export * as subusers from './subusers';
export * as users from './users';
