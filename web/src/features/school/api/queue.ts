import type { QueueItem, QueueListRequest } from '@attesta/contract';
import { call } from '../../../lib/call';
import { quiet, type ListCall } from './shared';

export const listQueue: ListCall<QueueItem, QueueListRequest> = (request, signal) =>
  call('POST /api/ParticipantTest/queuelist', { body: request }, { ...quiet, signal });
