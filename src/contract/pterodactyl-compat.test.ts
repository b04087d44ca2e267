import { describe, expect, it } from 'vitest';
import {
  accountSchema,
  activityLogListSchema,
  errorDocumentSchema,
  errorField,
  fileListSchema,
  loginResponseSchema,
  serverListSchema,
  serverWithMetaSchema,
} from './index';

/*
 * The SPA must also work in front of a real Pterodactyl panel.
 * These documents are shaped as the reference panel sends them: nulls where it sends nulls, no deprecated spec-only fields, `meta.source_field` instead of
 * `source.field`. If the contract stops accepting them, the SPA would break against such a panel.
 */

const referenceServer = {
  object: 'server',
  attributes: {
    server_owner: true,
    identifier: '1a7ce997',
    internal_id: 12,
    uuid: '1a7ce997-259b-452e-8b4e-cecc464142ca',
    name: 'Survival',
    node: 'node-1',
    is_node_under_maintenance: false,
    sftp_details: { ip: 'node1.example.com', port: 2022 },
    description: '',
    limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 100, threads: null, oom_disabled: true },
    invocation: 'java -Xms128M -Xmx1024M -jar server.jar',
    docker_image: 'ghcr.io/pterodactyl/yolks:java_17',
    egg_features: null,
    feature_limits: { databases: 0, allocations: null, backups: 2 },
    status: null,
    is_suspended: false,
    is_installing: false,
    is_transferring: false,
    relationships: {
      allocations: {
        object: 'list',
        data: [{ object: 'allocation', attributes: { id: 1, ip: '10.0.0.5', ip_alias: null, port: 25565, notes: null, is_default: true } }],
      },
      // Without startup.read the reference panel withholds the variables.
      variables: { object: 'null_resource', attributes: null },
    },
  },
};

describe('documents of a real Pterodactyl panel', () => {
  it('parses a server list page, with links as an empty object', () => {
    const doc = {
      object: 'list',
      data: [referenceServer],
      meta: { pagination: { total: 1, count: 1, per_page: 50, current_page: 1, total_pages: 1, links: {} } },
    };
    const parsed = serverListSchema.parse(doc);
    expect(parsed.data[0]?.attributes.relationships.allocations.data[0]?.attributes.ip_alias).toBeNull();
  });

  it('parses one server with the permissions meta of an owner', () => {
    const parsed = serverWithMetaSchema.parse({ ...referenceServer, meta: { is_server_owner: true, user_permissions: ['*'] } });
    expect(parsed.meta.user_permissions).toEqual(['*']);
  });

  it('parses activity with hidden IPs and a missing actor', () => {
    const doc = {
      object: 'list',
      data: [
        {
          object: 'activity_log',
          attributes: {
            id: '3f786850e387550fdab836ed7e6dc881de23001b',
            batch: null,
            event: 'server:file.delete',
            is_api: false,
            ip: null,
            description: null,
            properties: { directory: '/plugins/', files: ['a.jar'], count: 1 },
            has_additional_metadata: true,
            timestamp: '2024-10-24T12:04:30+00:00',
            relationships: { actor: { object: 'null_resource', attributes: null } },
          },
        },
      ],
      meta: { pagination: { total: 1, count: 1, per_page: 25, current_page: 1, total_pages: 1, links: {} } },
    };
    expect(activityLogListSchema.parse(doc).data[0]?.attributes.ip).toBeNull();
  });

  it('reads the field of a validation error from meta.source_field', () => {
    const doc = errorDocumentSchema.parse({
      errors: [
        { code: 'ValidationException', status: '422', detail: 'The email field is required.', meta: { source_field: 'email', rule: 'required' } },
      ],
    });
    expect(doc.errors[0] && errorField(doc.errors[0])).toBe('email');
  });

  it('parses a completed login whose user has no identifier', () => {
    const doc = loginResponseSchema.parse({
      data: {
        complete: true,
        intended: '/',
        user: {
          uuid: 'c4022c6c-9bf1-4a23-bff9-519cceb38335',
          username: 'admin',
          email: 'admin@example.com',
          name_first: 'Ad',
          name_last: 'Min',
          language: 'en',
          root_admin: true,
          use_totp: false,
          gravatar: true,
          created_at: '2024-10-24T12:04:30.000000Z',
          updated_at: '2024-10-24T12:04:30.000000Z',
        },
      },
    });
    expect(doc.data.complete).toBe(true);
  });

  it('parses the account and a Wings file listing', () => {
    expect(
      accountSchema.parse({
        object: 'user',
        attributes: { id: 1, admin: true, username: 'admin', email: 'a@example.com', first_name: 'A', last_name: 'B', language: 'en' },
      }).attributes.admin,
    ).toBe(true);
    const files = fileListSchema.parse({
      object: 'list',
      data: [
        {
          object: 'file_object',
          attributes: {
            name: 'server.properties',
            mode: '-rw-r--r--',
            mode_bits: '644',
            size: 1180,
            is_file: true,
            is_symlink: false,
            mimetype: 'text/plain; charset=utf-8',
            created_at: '2024-03-17T14:58:30-06:00',
            modified_at: '2024-03-17T14:58:30-06:00',
          },
        },
      ],
    });
    expect(files.data).toHaveLength(1);
  });
});
