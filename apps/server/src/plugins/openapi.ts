import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { DEVICE_ID_HEADER, DEVICE_NAME_HEADER, PRODUCT_NAME, SESSION_COOKIE_NAME } from '@radflow/core';

/**
 * The OpenAPI 3 document, generated from the routes' zod schemas (ARCHITECTURE §2), at
 * /api/openapi.json, and a browsable UI at /api/docs. Register before the routes.
 */
export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: `${PRODUCT_NAME} API`,
          version: '0.1.0',
          description:
            `Every request carries the ${DEVICE_ID_HEADER} and ${DEVICE_NAME_HEADER} headers. ` +
            `Authenticate with the ${SESSION_COOKIE_NAME} cookie from POST /api/do-login, or with ` +
            '`Authorization: Bearer <token>` from GET /api/user/token on the DICOMweb routes (/api/dicomweb) and the router update routes (/api/router/latest, /api/router/download) only. Every error answers ' +
            '{ errorStatusCode, errorDescription, additionalInfo, txnId }; txnId is the request id in the server log.',
        },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE_NAME },
            apiToken: { type: 'http', scheme: 'bearer' },
          },
        },
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });
    await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
    app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
  },
  { name: 'openapi' },
);
