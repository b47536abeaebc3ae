import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateOpenApi, openApiText } from './openapi.js';

// `npm run openapi`: rewrites docs/openapi.json from the routes' schemas.
const target = join(dirname(fileURLToPath(import.meta.url)), '../../docs/openapi.json');
writeFileSync(target, openApiText(await generateOpenApi()));
console.log(`wrote ${target}`);
