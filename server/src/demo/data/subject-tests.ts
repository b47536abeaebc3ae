import type { DemoSubjectTest } from './catalog.js';
import { informatics9 } from './informatics.js';
import { math7 } from './math.js';
import { physics9 } from './physics.js';
import { russian7 } from './russian.js';

/** Every demo subject test, in the order they are created. */
export const DEMO_SUBJECT_TESTS: DemoSubjectTest[] = [math7, russian7, physics9, informatics9];
