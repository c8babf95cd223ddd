/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** ISO 8601 date-time. Output: UTC without zone, microsecond precision. Input: with a zone (`Z` or `±hh:mm`). */
  DateTime: { input: string; output: string; }
  /** An exact decimal number, carried as a string (never a float). */
  Decimal: { input: string; output: string; }
  /** Arbitrary JSON value. */
  JSON: { input: unknown; output: unknown; }
};

/** A client of the exchange (a bank system holding client credentials). */
export type Client = {
  __typename?: 'Client';
  createdAt: Scalars['DateTime']['output'];
  isActive: Scalars['Boolean']['output'];
  name: Scalars['String']['output'];
  roles: Array<Scalars['String']['output']>;
  scopes: Array<Scalars['String']['output']>;
  tenantId: Scalars['String']['output'];
  uid: Scalars['String']['output'];
  updatedAt: Scalars['DateTime']['output'];
};

/** Liveness of the service and its database. */
export type Health = {
  __typename?: 'Health';
  database: Scalars['String']['output'];
  status: Scalars['String']['output'];
};

export type LoginResult = {
  __typename?: 'LoginResult';
  claims: TokenClaims;
  /** Lifetime of the access token, seconds. */
  expiresIn: Scalars['Int']['output'];
  tokens: TokenSet;
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Exchanges client credentials for the tokens of a new session. */
  login: LoginResult;
  /** Exchanges a refresh token (usable once) for new tokens in the same session. */
  refresh: RefreshResult;
};


export type MutationLoginArgs = {
  clientId: Scalars['String']['input'];
  clientSecret: Scalars['String']['input'];
};


export type MutationRefreshArgs = {
  refreshToken: Scalars['String']['input'];
};

export type Query = {
  __typename?: 'Query';
  health: Health;
  /** The record of the calling client. */
  viewer: Client;
};

export type RefreshResult = {
  __typename?: 'RefreshResult';
  /** Lifetime of the access token, seconds. */
  expiresIn: Scalars['Int']['output'];
  status: Scalars['String']['output'];
  tokens: TokenSet;
};

/** The claims of the access token. */
export type TokenClaims = {
  __typename?: 'TokenClaims';
  amr: Array<Scalars['String']['output']>;
  aud: Scalars['String']['output'];
  clientId: Scalars['String']['output'];
  /** Expiry, Unix seconds. */
  exp: Scalars['Int']['output'];
  /** Issued at, Unix seconds. */
  iat: Scalars['Int']['output'];
  iss: Scalars['String']['output'];
  jti: Scalars['String']['output'];
  roles: Array<Scalars['String']['output']>;
  scopes: Array<Scalars['String']['output']>;
  sessionId: Scalars['String']['output'];
  /** The client id. */
  sub: Scalars['String']['output'];
  tenantId: Scalars['String']['output'];
  tokenType: Scalars['String']['output'];
};

/** An access token (EdDSA-signed JWT) and the refresh token that renews it once. */
export type TokenSet = {
  __typename?: 'TokenSet';
  access: Scalars['String']['output'];
  refresh: Scalars['String']['output'];
};

export type LoginMutationVariables = Exact<{
  clientId: string;
  clientSecret: string;
}>;


export type LoginMutation = { login: { expiresIn: number, claims: { iss: string, sub: string, aud: string, iat: number, exp: number, jti: string, tokenType: string, sessionId: string, tenantId: string, roles: Array<string>, scopes: Array<string>, amr: Array<string>, clientId: string }, tokens: { access: string, refresh: string } } };

export type RefreshMutationVariables = Exact<{
  refreshToken: string;
}>;


export type RefreshMutation = { refresh: { status: string, expiresIn: number, tokens: { access: string, refresh: string } } };

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { uid: string, name: string, tenantId: string, roles: Array<string>, scopes: Array<string>, isActive: boolean, createdAt: string, updatedAt: string } };

export type HealthQueryVariables = Exact<{ [key: string]: never; }>;


export type HealthQuery = { health: { status: string, database: string } };


export const LoginDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Login"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"clientId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"clientSecret"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"login"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"clientId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"clientId"}}},{"kind":"Argument","name":{"kind":"Name","value":"clientSecret"},"value":{"kind":"Variable","name":{"kind":"Name","value":"clientSecret"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"claims"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"iss"}},{"kind":"Field","name":{"kind":"Name","value":"sub"}},{"kind":"Field","name":{"kind":"Name","value":"aud"}},{"kind":"Field","name":{"kind":"Name","value":"iat"}},{"kind":"Field","name":{"kind":"Name","value":"exp"}},{"kind":"Field","name":{"kind":"Name","value":"jti"}},{"kind":"Field","name":{"kind":"Name","value":"tokenType"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"tenantId"}},{"kind":"Field","name":{"kind":"Name","value":"roles"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}},{"kind":"Field","name":{"kind":"Name","value":"amr"}},{"kind":"Field","name":{"kind":"Name","value":"clientId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"tokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"access"}},{"kind":"Field","name":{"kind":"Name","value":"refresh"}}]}},{"kind":"Field","name":{"kind":"Name","value":"expiresIn"}}]}}]}}]} as unknown as DocumentNode<LoginMutation, LoginMutationVariables>;
export const RefreshDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Refresh"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"refreshToken"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"refresh"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"refreshToken"},"value":{"kind":"Variable","name":{"kind":"Name","value":"refreshToken"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"tokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"access"}},{"kind":"Field","name":{"kind":"Name","value":"refresh"}}]}},{"kind":"Field","name":{"kind":"Name","value":"expiresIn"}}]}}]}}]} as unknown as DocumentNode<RefreshMutation, RefreshMutationVariables>;
export const ViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uid"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"tenantId"}},{"kind":"Field","name":{"kind":"Name","value":"roles"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}},{"kind":"Field","name":{"kind":"Name","value":"isActive"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}}]} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;
export const HealthDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"database"}}]}}]}}]} as unknown as DocumentNode<HealthQuery, HealthQueryVariables>;