import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { AppError } from '../errors.js';
import type { BlobStore, ByteRange } from './types.js';

/** FILES_S3_*: where the `s3` driver keeps blobs (any S3-compatible service). */
export interface S3Settings {
  /** FILES_S3_ENDPOINT; undefined: Amazon S3 itself (the region's endpoint). */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Both keys, or neither (then the AWS SDK's usual sources: environment, profile, instance role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** `http://host/bucket/key` rather than `http://bucket.host/key` (MinIO and most self-hosted services). */
  forcePathStyle: boolean;
}

/** A row's storage key for a blob in S3: the prefix and the object's name (a random UUID). */
const S3_KEY = /^s3:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** Bytes per part of a multipart upload (S3's minimum is 5 MiB); a blob this small goes in one PUT. */
export const S3_PART_BYTES = 8 * 1024 * 1024;

/** What a caller sees when the object store does not answer: nothing was stored, try again. */
export const storageUnavailable = (cause: unknown) =>
  Object.assign(
    new AppError(
      503,
      'service_unavailable',
      'The file storage did not answer; nothing was stored: try again',
    ),
    { cause },
  );

/**
 * Blobs as objects in an S3 bucket (docs/ARCHITECTURE.md "File storage"), through the AWS SDK:
 * `@aws-sdk/lib-storage`'s Upload sends a blob in parts of S3_PART_BYTES, two at a time, so a
 * stream never sits whole in memory, and aborts the multipart upload when a part fails; reads are
 * GetObject streams, a range as an HTTP Range. Checksums are sent only where S3 requires them:
 * the SDK's default CRC trailers are not understood by every S3-compatible service.
 */
export class S3BlobStore implements BlobStore {
  readonly driver = 's3' as const;
  readonly client: S3Client;

  constructor(readonly settings: S3Settings) {
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A service that stopped answering fails the request instead of holding it (and its upload).
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
    });
  }

  get location(): string {
    return `s3://${this.settings.bucket}${this.settings.endpoint ? ` at ${this.settings.endpoint}` : ''}`;
  }

  owns(key: string): boolean {
    return S3_KEY.test(key);
  }

  private objectOf(key: string): string {
    const match = S3_KEY.exec(key);
    if (!match) throw new Error('not a key of this store');
    return match[1]!;
  }

  async put(source: Buffer | Readable): Promise<string> {
    const name = randomUUID();
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.settings.bucket,
        Key: name,
        Body: source,
        ContentType: 'application/octet-stream',
      },
      partSize: S3_PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // The source's own failure (a size check, a client gone) is the caller's error, not ours.
      if (!Buffer.isBuffer(source) && source.errored) throw source.errored;
      throw storageUnavailable(error);
    }
    return `s3:${name}`;
  }

  get(key: string, range?: ByteRange): Readable {
    const name = this.objectOf(key);
    const out = new PassThrough();
    const abort = new AbortController();
    let started = false;
    out.on('close', () => {
      if (!started) abort.abort();
    });
    this.client
      .send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: name,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
        { abortSignal: abort.signal },
      )
      .then(
        (res) => {
          started = true;
          // pipeline destroys the body when the reader goes away early.
          return pipeline(res.Body as Readable, out);
        },
        (error: unknown) => {
          throw error instanceof NoSuchKey ||
            (error instanceof S3ServiceException && error.name === 'NoSuchKey')
            ? Object.assign(new Error(`no object ${name} in bucket ${this.settings.bucket}`), {
                code: 'ENOENT',
              })
            : error;
        },
      )
      .catch((error: Error) => out.destroy(error));
    return out;
  }

  async delete(key: string): Promise<void> {
    // S3 answers a delete of an object that is gone with success too.
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectOf(key) }),
    );
  }

  async *list(before: Date): AsyncIterable<string> {
    for await (const page of paginateListObjectsV2(
      { client: this.client, pageSize: 1000 },
      { Bucket: this.settings.bucket },
    )) {
      for (const object of page.Contents ?? []) {
        const key = `s3:${object.Key ?? ''}`;
        // Only objects this store names: a bucket shared with other things keeps theirs.
        if (S3_KEY.test(key) && object.LastModified && object.LastModified < before) yield key;
      }
    }
  }

  close(): void {
    this.client.destroy();
  }
}
