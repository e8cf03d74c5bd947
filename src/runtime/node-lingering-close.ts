import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/** The most of a refused body read before its connection closes, however fast it comes. */
const LINGER_BYTES = 16 * 1024 * 1024;
/** A pause after which a lingering client is taken to have stopped sending (nginx's lingering_timeout). */
const LINGER_IDLE_MS = 2_000;

/**
 * Lingering close, as nginx does it. When an answer goes out before its request's
 * body has all arrived (a 413, a 401 on an upload, a refused file), closing the
 * socket at once makes the client's next bytes meet a reset, and the reset can
 * destroy the answer before the client reads it: fetch fails with EPIPE, a
 * browser shows a broken connection instead of the 413. So after such an answer
 * the server stops writing (the client sees the end of the answer), reads and
 * discards whatever still comes, and closes once the body has ended, nothing
 * has come for LINGER_IDLE_MS, or `lingerMs` or LINGER_BYTES run out.
 */
export function lingerOnUnreadBodies(server: Server, lingerMs: number) {
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket as Socket;
    let lingering = false;
    const linger = () => {
      if (lingering) return;
      lingering = true;
      lingeringClose(request, socket, lingerMs);
    };
    // An answer with `Connection: close` has Node end its socket with destroySoon()
    // as soon as it is sent, before 'finish' listeners run: taken over here, for
    // this request (a kept-alive socket's next request takes it over anew).
    Object.assign(socket, {
      destroySoon() {
        if (request.complete) Socket.prototype.destroySoon.call(socket);
        else linger();
      },
    });
    // A kept-alive answer to a request whose body is still coming (a GET with a
    // body, say): Node would read on for as long as it comes.
    response.once('finish', () => {
      if (!request.complete) linger();
    });
  });
}

function lingeringClose(request: IncomingMessage, socket: Socket, lingerMs: number) {
  socket.end();
  const close = () => {
    clearTimeout(timer);
    clearTimeout(idle);
    socket.destroy();
  };
  const timer = setTimeout(close, lingerMs);
  const idle = setTimeout(close, Math.min(lingerMs, LINGER_IDLE_MS));
  let read = 0;
  // Whoever read the body before (the app's stream) has stopped: nothing keeps what comes now.
  request.removeAllListeners('data');
  request.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES) return close();
    idle.refresh();
  });
  request.once('end', close);
  request.once('error', close);
  socket.once('close', () => {
    clearTimeout(timer);
    clearTimeout(idle);
  });
  request.resume();
}
