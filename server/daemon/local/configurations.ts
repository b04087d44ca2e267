import type { ServerConfiguration } from '../capabilities';
import { DaemonError } from '../types';

/** Asks the panel for a server's configuration; undefined when the panel has no such server. */
export type ConfigurationSource = (server: string) => Promise<ServerConfiguration | undefined>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isServerUuid = (server: string): boolean => UUID.test(server);

export const unknownServer = (): DaemonError => new DaemonError('not_found', 'The requested server does not exist on this node.');

/*
 * The configurations this node holds, as Wings holds them: pulled from the panel when the panel
 * says a server changed (`sync`, Wings' `POST /api/servers/{uuid}/sync`), before each start, and
 * the first time a server the node holds nothing for is used (after a restart, since nothing here
 * outlives the process). Nothing is re-read on a timer: Wings has no such thing, so a change that
 * does not end in a sync would never reach a Wings node either. A failed pull keeps what is held.
 */
export class Configurations {
  private readonly held = new Map<string, ServerConfiguration>();
  private readonly pulls = new Map<string, Promise<ServerConfiguration | undefined>>();
  /** Counts each server's pulls begun and removals, so an older pull landing late does not undo a newer one. */
  private readonly generations = new Map<string, number>();
  /** Told of every configuration taken in (a server suspended meanwhile is stopped). */
  onUpdate: (configuration: ServerConfiguration) => void = () => undefined;

  constructor(private readonly source?: ConfigurationSource) {}

  /** The server's configuration, pulled when not held; `not_found` when the panel does not know it either. */
  async get(server: string): Promise<ServerConfiguration> {
    const held = this.held.get(server);
    if (held) return held;
    const configuration = await (this.pulls.get(server) ?? this.pull(server));
    if (!configuration) throw unknownServer();
    return configuration;
  }

  /**
   * Pulls the server's configuration now, whatever is held (a pull already under way may predate
   * the change, so a new one begins). `not_found` when the panel has no such server; a panel that
   * does not answer keeps what is held and the refusal goes to the caller.
   */
  async sync(server: string): Promise<ServerConfiguration> {
    const configuration = await this.pull(server);
    if (!configuration) throw unknownServer();
    return configuration;
  }

  forget(server: string): void {
    this.held.delete(server);
    this.nextGeneration(server);
  }

  private nextGeneration(server: string): number {
    const generation = (this.generations.get(server) ?? 0) + 1;
    this.generations.set(server, generation);
    return generation;
  }

  private pull(server: string): Promise<ServerConfiguration | undefined> {
    if (!this.source || !isServerUuid(server)) return Promise.resolve(this.held.get(server));
    const generation = this.nextGeneration(server);
    const pull = this.source(server)
      .then((pulled) => {
        // A newer pull (or a removal) began meanwhile: it has the last word.
        if (this.generations.get(server) !== generation) return this.pulls.get(server) ?? this.held.get(server);
        if (pulled?.settings.uuid !== server) {
          // The panel no longer has it: neither does this node.
          this.held.delete(server);
          return undefined;
        }
        this.held.set(server, pulled);
        this.onUpdate(pulled);
        return pulled;
      })
      .finally(() => {
        if (this.pulls.get(server) === pull) this.pulls.delete(server);
      });
    this.pulls.set(server, pull);
    return pull;
  }
}
