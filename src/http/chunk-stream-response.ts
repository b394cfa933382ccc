import type { ChunkStream } from '../call/commit-stream.js';

/**
 * A committed stream as a Web Response for the endpoints served through the HTTP framework. Each
 * chunk is pulled only when the previous one has been taken for writing (no read-ahead), and a
 * client that goes away cancels the body, which gives the stream up and stops its upstream call.
 */
export function chunkStreamResponse(chunks: ChunkStream, headers: Record<string, string>): Response {
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200, headers });
}
