/**
 * The client wire formats the gateway speaks. It lives in the IR because both sides name it:
 * a client format is one of these, and a provider says which of them its upstream speaks natively.
 */
export type FormatName = 'chat' | 'responses' | 'messages';
