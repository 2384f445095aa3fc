// The subset of GitHub's GraphQL schema gitdex reads: a repository's metadata and, at a commit,
// the entries and bytes of named files (Commit.file), or any object by id (Repository.object), and a
// commit's history (Commit.history, Commit.parents) and its change counts against its first parent
// (Commit.additions, deletions, changedFilesIfAvailable), and a tree's entries (Tree.entries).
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
    entries: [TreeEntry!]
  }

  type Commit implements GitObject {
    oid: GitObjectID!
    abbreviatedOid: String!
    committedDate: DateTime!
    message: String!
    additions: Int!
    deletions: Int!
    changedFilesIfAvailable: Int
    author: GitActor
    committer: GitActor
    parents(first: Int, after: String): CommitConnection!
    history(first: Int, after: String, path: String): CommitHistoryConnection!
    tree: Tree!
    file(path: String!): TreeEntry
  }

  scalar GitTimestamp

  type GitActor {
    name: String
    email: String
    date: GitTimestamp
  }

  type PageInfo {
    hasNextPage: Boolean!
    endCursor: String
  }

  type CommitConnection {
    totalCount: Int!
    nodes: [Commit]
  }

  type CommitHistoryConnection {
    totalCount: Int!
    nodes: [Commit]
    pageInfo: PageInfo!
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
