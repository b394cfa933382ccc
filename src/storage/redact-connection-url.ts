/** A query parameter whose value is a credential: `password`, `sslpassword`, `client_secret`, `auth_token`, … */
const secretParameter = /pass|secret|token/i;

/**
 * A connection URL (PostgreSQL, Redis) fit to print: the password of its user part and the value
 * of every query parameter naming a password, secret or token replaced by `***`.
 */
export function redactConnectionUrl(connectionString: string): string {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    // Not parseable as a URL: hide everything between the scheme and the host rather than guess,
    // and every secret parameter's value up to the next `&`.
    return connectionString
      .replace(/\/\/[^@/]*@/, '//***@')
      .replace(/([?&][^=&]*(?:pass|secret|token)[^=&]*=)[^&]*/gi, '$1***');
  }
  if (url.password !== '') url.password = '***';
  // Rewritten by hand, not through searchParams.set, so the other parameters keep their spelling.
  url.search = url.search.replace(/([?&])([^=&]*)=([^&]*)/g, (whole, separator: string, name: string) =>
    secretParameter.test(decodedName(name)) ? `${separator}${name}=***` : whole,
  );
  return url.toString();
}

/** A parameter's name as written, or decoded when it is percent-encoded (`pass%77ord`). */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
