// Preloaded into node.exe under Wine only (test/e2e/wine.test.ts): Wine fails a keep-alive
// with a delay set on a socket that is not connected yet ("connect UNKNOWN"), which undici's
// fetch does. Real Windows accepts it; here the setting waits for the connection.
const net = require('node:net');
const original = net.Socket.prototype.setKeepAlive;
net.Socket.prototype.setKeepAlive = function (enable, delay) {
  if (this.connecting) {
    this.once('connect', () => original.call(this, enable, delay));
    return this;
  }
  return original.call(this, enable, delay);
};
