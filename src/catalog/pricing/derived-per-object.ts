/**
 * A value worked out once per object (a price schedule's start times, a price's flat rates) and
 * asked for on every call. Kept in a WeakMap, so a catalog that is replaced takes its values with
 * it (but for the last one asked about, held until another is); that one is checked first, because
 * calls come in runs of one model and a WeakMap lookup hashes its key every time.
 */
export function derivedPerObject<Key extends object, Value>(derive: (key: Key) => Value): (key: Key) => Value {
  const derived = new WeakMap<Key, { readonly value: Value }>();
  let lastKey: Key | undefined;
  let lastValue: Value | undefined;
  return (key) => {
    if (key === lastKey) return lastValue as Value;
    let known = derived.get(key);
    if (known === undefined) {
      known = { value: derive(key) };
      derived.set(key, known);
    }
    lastKey = key;
    lastValue = known.value;
    return known.value;
  };
}
