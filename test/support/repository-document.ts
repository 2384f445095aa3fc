import type { RepositoryDocument } from '@gitdex/contracts';
import type { SourceRepository } from '@gitdex/ports';

/** The index's document of a public repository GitHub (the stand-in) answered, on `main`, as a test puts it before indexing a ref by hand. */
export function repositoryDocumentOf(repository: SourceRepository): RepositoryDocument {
  return {
    repositoryId: repository.id,
    fullName: repository.fullName,
    fullNameLower: repository.fullName.toLowerCase(),
    defaultBranch: 'main',
    private: false,
    archived: false,
    htmlUrl: repository.htmlUrl,
    installationId: null,
    updatedAt: new Date().toISOString(),
    backfillRequestedAt: null,
  };
}
