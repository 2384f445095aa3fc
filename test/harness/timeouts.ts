// Integration tests wait on real engines (a Kafka group join alone takes seconds);
// per-project testTimeout is not honoured by jest 30, so it is set here.
jest.setTimeout(180_000);
