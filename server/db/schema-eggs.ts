import type { Generated } from 'kysely';

/* The nests, eggs and egg variables tables (migrations 001, 004, 005, 020), beside `schema.ts`'s: what a server runs. */

export interface NestsTable {
  id: Generated<number>;
  uuid: string;
  author: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface EggsTable {
  id: Generated<number>;
  uuid: string;
  /** Null only for an egg written before 020 by code that did not know nests; the repo always sets it. */
  nest_id: number | null;
  author: Generated<string>;
  name: string;
  description: Generated<string | null>;
  startup: string;
  /** JSON object: display name → image reference. */
  docker_images: string;
  /** JSON array of feature names. */
  features: string;
  /** JSON array of paths the file manager refuses (the reference's `file_denylist`). */
  file_denylist: Generated<string>;
  /** Where a newer version of the egg file is (import keeps it; nothing fetches it). */
  update_url: Generated<string | null>;
  /** JSON: the reference's configuration-file parser rules, kept for export and for Wings nodes. */
  config_files: Generated<string>;
  /** JSON `{"done": "line" | ["line", …]}`: output that means the program has started. */
  config_startup: Generated<string>;
  /** JSON: the reference's log settings (unused by Wings 1.x, kept for export). */
  config_logs: Generated<string>;
  /** How the program stops: a console line (`stop`), `^C`, or a signal name (`SIGTERM`). */
  config_stop: Generated<string>;
  /** The install script (create and reinstall), run with the volume at /mnt/server; null: none. */
  script_install: Generated<string | null>;
  /** The image the install script runs in (a Wings node's installer container). */
  script_container: Generated<string>;
  /** The script's interpreter in that image. */
  script_entry: Generated<string>;
  /** The reference's flag; Aerie's install sandbox is unprivileged whatever it says. */
  script_is_privileged: Generated<number>;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface EggVariablesTable {
  id: Generated<number>;
  egg_id: number;
  name: string;
  description: string;
  env_variable: string;
  default_value: string;
  user_viewable: number;
  user_editable: number;
  rules: string;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}
