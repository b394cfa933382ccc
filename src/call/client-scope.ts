import { AbortScope } from './abort-scope.js';

/**
 * The abort scope of a client's call (aborted when the client goes, or with a reason when a
 * shutdown stops the call), and the gateway's shutdown. A client that leaves a committed stream
 * has its scope aborted at once while the upstream is still read for the call's usage: that
 * read-on listens to `shutdown`, which the client's own scope, aborted already, no longer relays.
 */
export class ClientScope extends AbortScope {
  constructor(
    /** Aborted when the gateway begins to shut down; a scope of its own in tests and one-off calls. */
    readonly shutdown: AbortScope = new AbortScope(),
  ) {
    super();
  }
}
