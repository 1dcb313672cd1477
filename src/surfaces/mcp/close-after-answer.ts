import type { Socket } from 'node:net';

/**
 * Closes a connection whose upload was refused mid-stream so that the client still reads the
 * answer. Node destroys a `Connection: close` socket as soon as the answer is written; with the
 * upload still arriving and unread, that close is a reset, and a client busy writing gets EPIPE or
 * ECONNRESET, sometimes before it has read the 413 (seen: the server socket closed before the
 * client had the answer). Instead the answer is followed by a half-close (the client reads it,
 * then end of stream), the rest of the upload is left unread, and the socket is destroyed after
 * `graceMs` whatever the client does: a bound on what a slow or hostile client can hold.
 */
export function closeAfterAnswer(socket: Socket, graceMs: number): void {
  // The http server calls `destroySoon` once a `Connection: close` answer is finished.
  socket.destroySoon = () => {
    socket.end();
  };
  setTimeout(() => socket.destroy(), graceMs).unref();
}
