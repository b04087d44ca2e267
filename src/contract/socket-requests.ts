import * as z from 'zod/mini';

/*
 * The frames a browser sends the node's console socket. Only the node parses them, so they are
 * kept out of the contract's index (and so out of the SPA's bundle, where zod's tuple and union
 * would otherwise ride along on every page); the SPA builds them with plain JSON.
 */

/*
 * Browser → daemon. The reference SPA sends `args: [undefined]`, which JSON turns into `[null]`,
 * for the events that take no argument, so those accept any args.
 */
const noArgs = z.optional(z.array(z.nullable(z.string())));
const oneArg = z.tuple([z.string()]);

export const socketRequestSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('auth'), args: oneArg }),
  z.object({ event: z.literal('send logs'), args: noArgs }),
  z.object({ event: z.literal('send stats'), args: noArgs }),
  z.object({ event: z.literal('set state'), args: oneArg }),
  z.object({ event: z.literal('send command'), args: oneArg }),
]);
export type SocketRequest = z.infer<typeof socketRequestSchema>;
