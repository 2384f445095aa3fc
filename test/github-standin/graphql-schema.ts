// The subset of GitHub's GraphQL schema gitdex reads: a repository's metadata and, at a commit,
// the entries and bytes of named files (Commit.file), or any object by id (Repository.object).
// Names and types follow GitHub's schema, so a query the stand-in accepts is one GitHub accepts.
import { buildSchema } from 'graphql';

export const STANDIN_GRAPHQL_SCHEMA = buildSchema(/* GraphQL */ `
  scalar GitObjectID
  scalar URI
  scalar DateTime

  type Query {
    repository(owner: String!, name: String!, followRenames: Boolean = true): Repository
    rateLimit(dryRun: Boolean = false): RateLimit
  }

  type RateLimit {
    cost: Int!
    limit: Int!
    nodeCount: Int!
    remaining: Int!
    resetAt: DateTime!
    used: Int!
  }

  type Ref {
    name: String!
    prefix: String!
  }

  type Repository {
    id: ID!
    databaseId: Int
    name: String!
    nameWithOwner: String!
    isPrivate: Boolean!
    isArchived: Boolean!
    url: URI!
    defaultBranchRef: Ref
    object(oid: GitObjectID): GitObject
  }

  interface GitObject {
    oid: GitObjectID!
    abbreviatedOid: String!
  }

  type Blob implements GitObject {
    oid: GitObjectID!
    abbreviatedOid: String!
    byteSize: Int!
    isBinary: Boolean
    isTruncated: Boolean!
    text: String
  }

  type Tree implements GitObject {
    oid: GitObjectID!
    abbreviatedOid: String!
  }

  type Commit implements GitObject {
    oid: GitObjectID!
    abbreviatedOid: String!
    committedDate: DateTime!
    tree: Tree!
    file(path: String!): TreeEntry
  }

  type TreeEntry {
    mode: Int!
    name: String!
    path: String
    oid: GitObjectID!
    type: String!
    size: Int!
    object: GitObject
  }
`);
