/**
 * What keyless calls (open access) are known by where a key id would name the caller: one name
 * for them all, since nothing tells them apart. Minted key ids (`key_…`) never take this value.
 */
export const keylessCaller = 'keyless';
