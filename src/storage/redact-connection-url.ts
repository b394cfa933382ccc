/** A query parameter whose value is a credential: `password`, `sslpassword`, `client_secret`, `auth_token`, … */
const secretParameter = /pass|secret|token/i;

/**
 * A connection URL (PostgreSQL, Redis) fit to print: the password of its user part and the value
 * of every query parameter naming a password, secret or token replaced by `***`.
 */
export function redactConnectionUrl(connectionString: string): string {
  // The user part runs to the last `@` (a password may hold `@`, `/`, `?` or `#` unescaped). When
  // it holds a character that ends a URL's host part, a parser reads the password as host, port,
  // path or query (or throws): hide the whole user part instead. A parameter holding `@` is then
  // hidden too, which errs the safe way.
  const userPart = /^([a-z][a-z0-9+.-]*:\/\/)(.*)@/is.exec(connectionString);
  if (userPart !== null && /[/?#@]/.test(userPart[2] ?? '')) {
    return redactUnparsed(`${userPart[1] ?? ''}***@${connectionString.slice(userPart[0].length)}`);
  }
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return redactUnparsed(connectionString);
  }
  if (url.password !== '') url.password = '***';
  // Rewritten by hand, not through searchParams.set, so the other parameters keep their spelling.
  url.search = url.search.replace(/([?&])([^=&]*)=([^&]*)/g, (whole, separator: string, name: string) =>
    secretParameter.test(decodedName(name)) ? `${separator}${name}=***` : whole,
  );
  return url.toString();
}

/**
 * Not parseable as a URL: hide everything between the scheme and the host rather than guess, and
 * every secret parameter's value up to the next `&`.
 */
function redactUnparsed(connectionString: string): string {
  return connectionString
    .replace(/\/\/[^@/]*@/, '//***@')
    .replace(/([?&][^=&]*(?:pass|secret|token)[^=&]*=)[^&]*/gi, '$1***');
}

/** A parameter's name as written, or decoded when it is percent-encoded (`pass%77ord`). */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
