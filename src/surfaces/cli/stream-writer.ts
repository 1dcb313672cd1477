/**
 * Writes text to a stream and waits while its buffer is full, so a big output (a run of a
 * million entries) costs one page of memory however slowly the reader reads. A reader that
 * goes away (`tally runs show RUN | head`: EPIPE) ends the output quietly; `closed` tells the
 * producer to stop reading.
 */
export interface StreamWriter {
  write(text: string): Promise<void>;
  readonly closed: boolean;
}

export function streamWriter(stream: NodeJS.WritableStream): StreamWriter {
  let closed = false;
  // Any failed write ends the output (thrown here it would crash the process); a failure other
  // than EPIPE on stdout is reported by standard-streams.ts when the command ends.
  const onError = () => {
    closed = true;
  };
  stream.on('error', onError);
  return {
    get closed() {
      return closed;
    },
    async write(text: string) {
      if (closed || stream.write(text)) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          stream.off('drain', done);
          stream.off('error', done);
          resolve();
        };
        stream.on('drain', done);
        stream.on('error', done);
      });
    },
  };
}
