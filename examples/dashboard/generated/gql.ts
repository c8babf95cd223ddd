/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  mutation DashboardLogin($clientId: String!, $clientSecret: String!) {\n    login(clientId: $clientId, clientSecret: $clientSecret) {\n      expiresIn\n      tokens {\n        access\n        refresh\n      }\n    }\n  }\n": typeof types.DashboardLoginDocument,
    "\n  mutation DashboardRefresh($refreshToken: String!) {\n    refresh(refreshToken: $refreshToken) {\n      status\n      expiresIn\n      tokens {\n        access\n        refresh\n      }\n    }\n  }\n": typeof types.DashboardRefreshDocument,
    "\n  query DashboardSymbols($limit: Int, $orderBy: SymbolOrderBy) {\n    symbols(limit: $limit, orderBy: $orderBy, filter: { isActive: true }) {\n      total\n      items {\n        symbol\n        minOrderQuantity\n        tickSize\n        base {\n          symbol\n        }\n        quote {\n          symbol\n        }\n      }\n    }\n  }\n": typeof types.DashboardSymbolsDocument,
    "\n  mutation DashboardPlaceOrder($input: CreateOrderInput!) {\n    createOrder(input: $input) {\n      created\n      order {\n        uid\n        status\n      }\n    }\n  }\n": typeof types.DashboardPlaceOrderDocument,
    "\n  query DashboardOrder($uid: ID!) {\n    order(uid: $uid) {\n      uid\n      symbol\n      side\n      quantity\n      price\n      status\n      filledQuantity\n    }\n  }\n": typeof types.DashboardOrderDocument,
    "\n  subscription DashboardOrderEvents($after: String) {\n    orderEvents(after: $after) {\n      sequence\n      type\n      order {\n        uid\n        status\n      }\n    }\n  }\n": typeof types.DashboardOrderEventsDocument,
};
const documents: Documents = {
    "\n  mutation DashboardLogin($clientId: String!, $clientSecret: String!) {\n    login(clientId: $clientId, clientSecret: $clientSecret) {\n      expiresIn\n      tokens {\n        access\n        refresh\n      }\n    }\n  }\n": types.DashboardLoginDocument,
    "\n  mutation DashboardRefresh($refreshToken: String!) {\n    refresh(refreshToken: $refreshToken) {\n      status\n      expiresIn\n      tokens {\n        access\n        refresh\n      }\n    }\n  }\n": types.DashboardRefreshDocument,
    "\n  query DashboardSymbols($limit: Int, $orderBy: SymbolOrderBy) {\n    symbols(limit: $limit, orderBy: $orderBy, filter: { isActive: true }) {\n      total\n      items {\n        symbol\n        minOrderQuantity\n        tickSize\n        base {\n          symbol\n        }\n        quote {\n          symbol\n        }\n      }\n    }\n  }\n": types.DashboardSymbolsDocument,
    "\n  mutation DashboardPlaceOrder($input: CreateOrderInput!) {\n    createOrder(input: $input) {\n      created\n      order {\n        uid\n        status\n      }\n    }\n  }\n": types.DashboardPlaceOrderDocument,
    "\n  query DashboardOrder($uid: ID!) {\n    order(uid: $uid) {\n      uid\n      symbol\n      side\n      quantity\n      price\n      status\n      filledQuantity\n    }\n  }\n": types.DashboardOrderDocument,
    "\n  subscription DashboardOrderEvents($after: String) {\n    orderEvents(after: $after) {\n      sequence\n      type\n      order {\n        uid\n        status\n      }\n    }\n  }\n": types.DashboardOrderEventsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardLogin($clientId: String!, $clientSecret: String!) {\n    login(clientId: $clientId, clientSecret: $clientSecret) {\n      expiresIn\n      tokens {\n        access\n        refresh\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardLogin($clientId: String!, $clientSecret: String!) {\n    login(clientId: $clientId, clientSecret: $clientSecret) {\n      expiresIn\n      tokens {\n        access\n        refresh\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRefresh($refreshToken: String!) {\n    refresh(refreshToken: $refreshToken) {\n      status\n      expiresIn\n      tokens {\n        access\n        refresh\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardRefresh($refreshToken: String!) {\n    refresh(refreshToken: $refreshToken) {\n      status\n      expiresIn\n      tokens {\n        access\n        refresh\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardSymbols($limit: Int, $orderBy: SymbolOrderBy) {\n    symbols(limit: $limit, orderBy: $orderBy, filter: { isActive: true }) {\n      total\n      items {\n        symbol\n        minOrderQuantity\n        tickSize\n        base {\n          symbol\n        }\n        quote {\n          symbol\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query DashboardSymbols($limit: Int, $orderBy: SymbolOrderBy) {\n    symbols(limit: $limit, orderBy: $orderBy, filter: { isActive: true }) {\n      total\n      items {\n        symbol\n        minOrderQuantity\n        tickSize\n        base {\n          symbol\n        }\n        quote {\n          symbol\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardPlaceOrder($input: CreateOrderInput!) {\n    createOrder(input: $input) {\n      created\n      order {\n        uid\n        status\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation DashboardPlaceOrder($input: CreateOrderInput!) {\n    createOrder(input: $input) {\n      created\n      order {\n        uid\n        status\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOrder($uid: ID!) {\n    order(uid: $uid) {\n      uid\n      symbol\n      side\n      quantity\n      price\n      status\n      filledQuantity\n    }\n  }\n"): (typeof documents)["\n  query DashboardOrder($uid: ID!) {\n    order(uid: $uid) {\n      uid\n      symbol\n      side\n      quantity\n      price\n      status\n      filledQuantity\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardOrderEvents($after: String) {\n    orderEvents(after: $after) {\n      sequence\n      type\n      order {\n        uid\n        status\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription DashboardOrderEvents($after: String) {\n    orderEvents(after: $after) {\n      sequence\n      type\n      order {\n        uid\n        status\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;