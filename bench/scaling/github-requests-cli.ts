// Prints GitHub requests a push, before and after, as lines and then JSON (see github-requests.ts).
import { measureGitHubRequests } from './github-requests';

measureGitHubRequests().then(
  (rows) => console.log(JSON.stringify(rows)),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
