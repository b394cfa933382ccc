import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';

/** One HTTP exchange as Node gives it, with the gateway's id for it (the text endpoints' view). */
export interface Exchange {
  readonly incoming: IncomingMessage;
  readonly outgoing: ServerResponse;
  readonly requestId: string;
}

/** What the HTTP framework carries for every exchange. */
export type GatewayEnvironment = { Bindings: HttpBindings; Variables: { requestId: string } };

/** The same exchange as the HTTP framework hands it to the other endpoints. */
export type GatewayContext = Context<GatewayEnvironment>;
