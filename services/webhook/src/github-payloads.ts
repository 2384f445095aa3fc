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
