import { z } from 'zod';

/**
 * The parts of GitHub's webhook payloads the pipeline needs. Anything else in a
 * payload is ignored; a missing needed field is a 400 that names it.
 */
export const GitHubRepositorySchema = z.object({
  id: z.number().int().positive(),
  full_name: z.string().min(3),
  default_branch: z.string().min(1).optional(),
  master_branch: z.string().min(1).optional(),
  private: z.boolean().optional(),
  html_url: z.string().url().optional(),
});
export type GitHubRepository = z.infer<typeof GitHubRepositorySchema>;

const installation = z.object({ id: z.number().int().positive() }).optional();
const sha = z.string().regex(/^[0-9a-f]{40}$/);

export const PushPayloadSchema = z.object({
  ref: z.string().min(1),
  before: sha,
  after: sha,
  created: z.boolean(),
  deleted: z.boolean(),
  forced: z.boolean(),
  /** Oldest first; only the ids are kept (read your own push). */
  commits: z.array(z.object({ id: sha })).optional(),
  repository: GitHubRepositorySchema.extend({ pushed_at: z.union([z.number(), z.string()]).nullable().optional() }),
  installation,
});

export const RefEventPayloadSchema = z.object({
  ref: z.string().min(1),
  ref_type: z.enum(['branch', 'tag']),
  repository: GitHubRepositorySchema,
  installation,
});

export const RepositoryPayloadSchema = z.object({
  action: z.string().min(1),
  repository: GitHubRepositorySchema,
  changes: z
    .object({
      repository: z.object({ name: z.object({ from: z.string() }).optional() }).optional(),
      owner: z.object({ from: z.object({ user: z.object({ login: z.string() }).optional(), organization: z.object({ login: z.string() }).optional() }) }).optional(),
    })
    .optional(),
  installation,
});

const installationRepository = z.object({ id: z.number().int().positive(), full_name: z.string().min(3), private: z.boolean().optional() });

export const InstallationPayloadSchema = z.object({
  action: z.string().min(1),
  installation: z.object({ id: z.number().int().positive() }),
  repositories: z.array(installationRepository).optional(),
});

export const InstallationRepositoriesPayloadSchema = z.object({
  action: z.string().min(1),
  installation: z.object({ id: z.number().int().positive() }),
  repositories_added: z.array(installationRepository),
  repositories_removed: z.array(installationRepository),
});

const dateTime = z.string().datetime({ offset: true });

/** A `pull_request` delivery: the action decides first, so an action gitdex ignores needs no more. */
export const PullRequestActionSchema = z.object({ action: z.string().min(1) });

export const PullRequestPayloadSchema = z.object({
  action: z.enum(['opened', 'reopened', 'synchronize', 'edited', 'closed']),
  number: z.number().int().positive(),
  pull_request: z.object({
    number: z.number().int().positive(),
    title: z.string().max(1024),
    state: z.enum(['open', 'closed']),
    draft: z.boolean().optional(),
    merged: z.boolean().nullable().optional(),
    user: z.object({ login: z.string() }).nullable(),
    base: z.object({ ref: z.string().min(1) }),
    head: z.object({ sha }),
    updated_at: dateTime,
    closed_at: dateTime.nullable(),
  }),
  /** On `edited`: what changed; gitdex re-layers only when the base branch did. */
  changes: z.object({ base: z.object({ ref: z.object({ from: z.string() }) }).optional() }).optional(),
  repository: GitHubRepositorySchema,
  installation,
});
