import { ConfigError, loadEnv } from '@gitdex/contracts';
import { readerHttpOptions } from '../../services/gitdex/src/run';

/** Issue 17, item 8: bound to every interface without a Host list, the reader refuses to start (it used to turn the DNS-rebinding check off). */
describe('GITDEX_ALLOWED_HOSTS when binding every interface', () => {
  it('refuses to start without the list, naming the variable', () => {
    for (const HOST of ['0.0.0.0', '::']) {
      const start = () => readerHttpOptions(loadEnv({ HOST }));
      expect(start).toThrow(ConfigError);
      expect(start).toThrow(/GITDEX_ALLOWED_HOSTS/);
    }
  });

  it('starts with a list (checked) or "*" (check off on purpose), and on loopback without one', () => {
    expect(readerHttpOptions(loadEnv({ HOST: '0.0.0.0', GITDEX_ALLOWED_HOSTS: 'gitdex.example.com' })).allowedHosts).toContain('gitdex.example.com');
    expect(readerHttpOptions(loadEnv({ HOST: '0.0.0.0', GITDEX_ALLOWED_HOSTS: '*' })).allowedHosts).toBeUndefined();
    expect(readerHttpOptions(loadEnv({ HOST: '127.0.0.1' })).allowedHosts).toContain('localhost');
  });
});
