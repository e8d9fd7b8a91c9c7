// Runs dynalite, DynamoDB's API for the tests and the bench, on loopback as
// its own cli.js does, but outlives a client that goes away mid-request:
// dynalite throws on an incoming request's 'error' event ("aborted"), so a
// test whose deadline cancelled a request in flight would end the server for
// every test after it.
//
//   node dynalite.js <dir holding node_modules> <port>
'use strict';

const [root, port] = process.argv.slice(2);

process.on('uncaughtException', (err) => {
  if (err && (err.code === 'ECONNRESET' || err.message === 'aborted')) {
    console.error('a client went away mid-request: ' + err.message);
    return;
  }
  console.error(err);
  process.exit(1);
});

const dynalite = require(require.resolve('dynalite', { paths: [root] }));
const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 })
  .listen(Number(port), '127.0.0.1', () => {
    console.log('Dynalite listening at: http://127.0.0.1:' + server.address().port);
  });
