import type { z } from 'zod';
import { errorSchema, quotaErrorSchema, upgradeErrorSchema, validationErrorSchema } from '../../shapes/schemas.ts';

/** The error answers the API document names, shared by the endpoints that list them. */
export const errorResponses = {
  400: { description: 'Invalid query parameter (name or value).', schema: validationErrorSchema },
  401: { description: 'Missing or invalid API key (x-api-key header).', schema: errorSchema },
  403: { description: 'The plan does not include API access.', schema: upgradeErrorSchema },
  404: { description: 'Sound not found.', schema: errorSchema },
  429: { description: 'Daily quota exceeded.', schema: quotaErrorSchema },
  500: { description: 'Internal failure.', schema: errorSchema },
} satisfies Record<number, { description: string; schema: z.ZodType }>;

export const authErrors = {
  401: errorResponses[401],
  403: errorResponses[403],
  429: errorResponses[429],
  500: errorResponses[500],
};
