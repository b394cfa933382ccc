import type { Kysely } from 'kysely';
import type { SettingsStore } from '../ports.js';
import type { StorageDatabase } from './database-schema.js';

export class KyselySettingsStore implements SettingsStore {
  constructor(private readonly db: Kysely<StorageDatabase>) {}

  async get(name: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('gateway_settings').select('value').where('name', '=', name).executeTakeFirst();
    return row?.value;
  }

  async putIfAbsent(name: string, value: string): Promise<string> {
    // Insert-or-ignore, then read back: whichever instance inserted first wins, and a loser's
    // insert waits for the winner's to commit, so the read sees the winner's value.
    await this.db
      .insertInto('gateway_settings')
      .values({ name, value })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    const stored = await this.get(name);
    if (stored === undefined) throw new Error(`The setting ${name} was neither stored nor found.`);
    return stored;
  }
}
