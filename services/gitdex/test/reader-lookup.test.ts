import { loadEnv } from '@gitdex/contracts';
import type { Logger } from '@gitdex/observability';
import type { SourceRepository } from '@gitdex/ports';
import type { Adapters } from '../src/adapters';
import { readerOptions } from '../src/run';

describe('the reader asks the adapters source about repositories gitdex never saw', () => {
  test('lookup is Source.repositoryByName, and GITDEX_QUEUE_UNSEEN reaches the reader', async () => {
    const asked: string[] = [];
    const repository: SourceRepository = { id: 9, fullName: 'newco/open', defaultBranch: 'main', private: false, archived: false, htmlUrl: 'https://github.com/newco/open' };
    const source = {
      repositoryByName: async (fullName: string) => {
        asked.push(fullName);
        return fullName === 'newco/open' ? repository : null;
      },
    };
    const adapters = { index: {}, publisher: {}, source } as unknown as Adapters;
    const options = readerOptions(loadEnv({ GITDEX_QUEUE_UNSEEN: 'anonymous' }), adapters, {} as Logger);
    expect(options.queueUnseen).toBe('anonymous');
    expect(await options.lookup?.('newco/open')).toEqual(repository);
    expect(await options.lookup?.('newco/none')).toBeNull();
    expect(asked).toEqual(['newco/open', 'newco/none']);
    expect(readerOptions(loadEnv({}), adapters, {} as Logger).queueUnseen).toBe('tokens');
  });
});
