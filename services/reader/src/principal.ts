/** Who is calling, as an authenticate hook found out; null for an anonymous caller. */
export interface Principal {
  id: string;
  /** Whatever the hook wants the access hook to see (teams, scopes, installation ids). */
  [key: string]: unknown;
}
