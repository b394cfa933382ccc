// Passthrough edits a client's JSON body as text; the scanner lives in json/ so provider adapters
// that rewrite a passed-through body (a platform's version member) share it.
export { findTopLevelValue, insertTopLevelMember, matchTrailingTopLevelValue, replaceTopLevelString } from '../json/json-text-members.js';
