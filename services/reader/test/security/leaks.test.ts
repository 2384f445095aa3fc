import { leaks } from './world';

// A cursor is base64 of JSON its holder can read: an error that names what the caller's own
// cursor names leaks nothing; the same name without such a cursor does.
test('a private name counts as leaked unless the request carried it, in its text or inside a cursor', () => {
  const forged = Buffer.from(JSON.stringify({ v: 1, r: 101, f: 'vault-only-z8' })).toString('base64url');
  const answer = '{"text":"cursor: it continues the listing of folder vault-only-z8; pass that folder or leave folder out"}';
  expect(leaks(answer, JSON.stringify({ repository: 'acme/tools', folder: 'README.md', cursor: forged }), 'anonymous')).toEqual([]);
  expect(leaks(answer, JSON.stringify({ repository: 'acme/tools', folder: 'README.md', cursor: 'eyJ2IjoxfQ' }), 'anonymous')).toEqual(['vault-only-z8']);
  expect(leaks(answer, JSON.stringify({ repository: 'acme/tools', folder: 'vault-only-z8' }), 'anonymous')).toEqual([]);
});
