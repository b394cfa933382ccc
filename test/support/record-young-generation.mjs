// Preloaded with `node --import` into a spawned gateway: at exit, writes the size of V8's young
// generation (the new space, both semi-spaces) in bytes to the file named by RECORD_YOUNG_GENERATION.
import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const file = process.env.RECORD_YOUNG_GENERATION;
if (file !== undefined) {
  process.on('exit', () => {
    const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    writeFileSync(file, String(newSpace?.space_size ?? -1));
  });
}
