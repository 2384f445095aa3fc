import type { FileDocument, ReadFileOutput } from '@gitdex/contracts';
import { flagsOutput } from '../format/text';
import type { Target } from '../target';

/** What every read_file answer says of the file, whether it reads lines or bytes. */
export function fileFields(target: Target, file: FileDocument): Pick<ReadFileOutput, 'repository' | 'ref' | 'path' | 'kind' | 'size' | 'language' | 'flags' | 'target'> {
  return {
    repository: target.repository.fullName,
    ref: target.state.ref,
    path: file.path,
    kind: file.kind,
    size: file.size,
    language: file.language,
    flags: flagsOutput(file.flags),
    ...(file.target !== undefined ? { target: file.target } : {}),
  };
}
