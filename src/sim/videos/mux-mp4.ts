import { BufferTarget, EncodedPacket, EncodedVideoPacketSource, Mp4OutputFormat, Output } from 'mediabunny';
import type { EncodedSecond } from './encoded-second.js';

/** The avcC record an MP4 decoder is configured from: profile, level and the parameter sets. */
function avcDecoderRecord(sps: Buffer, pps: Buffer): Uint8Array {
  const record = Buffer.alloc(11 + sps.length + pps.length);
  record[0] = 1;
  record[1] = sps[1] ?? 0;
  record[2] = sps[2] ?? 0;
  record[3] = sps[3] ?? 0;
  record[4] = 0xff; // 4-byte NAL length prefixes
  record[5] = 0xe1; // one SPS
  record.writeUInt16BE(sps.length, 6);
  sps.copy(record, 8);
  record[8 + sps.length] = 1; // one PPS
  record.writeUInt16BE(pps.length, 9 + sps.length);
  pps.copy(record, 11 + sps.length);
  return record;
}

function hex(byte: number | undefined): string {
  return (byte ?? 0).toString(16).padStart(2, '0').toUpperCase();
}

/**
 * An MP4 of `seconds` seconds at the encoded size: the encoded second repeated (each repeat opens
 * with its keyframe, so every second decodes on its own), timestamps running on. Real H.264 in a
 * real container, made without any external program.
 */
export async function muxMp4(encoded: EncodedSecond, seconds: number): Promise<Buffer> {
  const sps = Buffer.from(encoded.sps, 'base64');
  const pps = Buffer.from(encoded.pps, 'base64');
  const pictures = encoded.pictures.map((picture) => ({ key: picture.key, data: new Uint8Array(Buffer.from(picture.data, 'base64')) }));
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target });
  const source = new EncodedVideoPacketSource('avc');
  output.addVideoTrack(source, { frameRate: encoded.framesPerSecond });
  await output.start();
  const frameSeconds = 1 / encoded.framesPerSecond;
  const decoderConfig = {
    codec: `avc1.${hex(sps[1])}${hex(sps[2])}${hex(sps[3])}`,
    codedWidth: encoded.width,
    codedHeight: encoded.height,
    description: avcDecoderRecord(sps, pps),
  };
  for (let index = 0; index < seconds * pictures.length; index++) {
    const picture = pictures[index % pictures.length] as { key: boolean; data: Uint8Array };
    const packet = new EncodedPacket(picture.data, picture.key ? 'key' : 'delta', index * frameSeconds, frameSeconds);
    await source.add(packet, index === 0 ? { decoderConfig } : undefined);
  }
  await output.finalize();
  if (target.buffer === null) throw new Error('the muxer produced no file');
  return Buffer.from(target.buffer);
}
