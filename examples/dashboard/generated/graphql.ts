/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type CreateOrderInput = {
  /** Unique per tenant, forever: a resubmission returns the existing order. */
  clientOrderId?: string | null | undefined;
  /** Required for gtd: ISO 8601 with a zone, in the future, at most 90 days ahead. */
  expireAt?: string | null | undefined;
  /** Limit gtc or gtd orders only: cancelled (post_only) rather than trade on arrival. */
  postOnly?: boolean | null | undefined;
  /** Required for limit and stop_limit orders; market and stop_market orders take none. */
  price?: string | null | undefined;
  quantity: string;
  side: OrderSide;
  /** Required for stop_limit and stop_market orders; others take none. */
  stopPrice?: string | null | undefined;
  symbol: string;
  /** gtc for limit orders when absent; market and stop_market orders are ioc. */
  timeInForce?: TimeInForce | null | undefined;
  type: OrderType;
};

export type OrderSide =
  | 'buy'
  | 'sell';

/** pending: a stop order no trade has triggered yet. */
export type OrderStatus =
  | 'cancelled'
  | 'filled'
  | 'open'
  | 'partially_filled'
  | 'pending';

/** A market order is immediate-or-cancel: it trades against the book, and what it could not fill is cancelled (unfilled). stop_limit and stop_market are pending until a trade reaches their stopPrice, then a limit or market order. */
export type OrderType =
  | 'limit'
  | 'market'
  | 'stop_limit'
  | 'stop_market';

/** Ascending (the default) or descending. */
export type SortDirection =
  | 'asc'
  | 'desc';

/** Sort by one field; ties are broken by uid. */
export type SymbolOrderBy = {
  direction?: SortDirection | null | undefined;
  field: SymbolSortField;
};

/** A field symbols can be sorted by (REST spelling). */
export type SymbolSortField =
  | 'created_at'
  | 'daily_fluctuation_price_limit_percent'
  | 'description'
  | 'is_active'
  | 'maker_fee_percent'
  | 'max_order_quantity'
  | 'min_notional'
  | 'min_order_quantity'
  | 'price_precision'
  | 'quantity_precision'
  | 'symbol'
  | 'taker_fee_percent'
  | 'tick_size'
  | 'uid'
  | 'updated_at'
  | 'user_id';

/** gtc: rests until filled or cancelled (limit orders by default); ioc: what its pass can fill, the rest cancelled (market orders always); fok: all in its pass, or cancelled with nothing filled; gtd: as gtc until expireAt, then cancelled (expired). */
export type TimeInForce =
  | 'fok'
  | 'gtc'
  | 'gtd'
  | 'ioc';

export type DashboardLoginMutationVariables = Exact<{
  clientId: string;
  clientSecret: string;
}>;


export type DashboardLoginMutation = { login: { expiresIn: number, tokens: { access: string, refresh: string } } };

export type DashboardRefreshMutationVariables = Exact<{
  refreshToken: string;
}>;


export type DashboardRefreshMutation = { refresh: { status: string, expiresIn: number, tokens: { access: string, refresh: string } } };

export type DashboardSymbolsQueryVariables = Exact<{
  limit?: number | null | undefined;
  orderBy?: SymbolOrderBy | null | undefined;
}>;


export type DashboardSymbolsQuery = { symbols: { total: number, items: Array<{ symbol: string, minOrderQuantity: string, tickSize: string, base: { symbol: string }, quote: { symbol: string } }> } };

export type DashboardPlaceOrderMutationVariables = Exact<{
  input: CreateOrderInput;
}>;


export type DashboardPlaceOrderMutation = { createOrder: { created: boolean, order: { uid: string, status: OrderStatus } } };

export type DashboardOrderQueryVariables = Exact<{
  uid: string | number;
}>;


export type DashboardOrderQuery = { order: { uid: string, symbol: string, side: OrderSide, quantity: string, price: string | null, status: OrderStatus, filledQuantity: string } | null };

export type DashboardOrderEventsSubscriptionVariables = Exact<{
  after?: string | null | undefined;
}>;


export type DashboardOrderEventsSubscription = { orderEvents: { sequence: string, type: string, order: { uid: string, status: OrderStatus } | null } };


export const DashboardLoginDocument = {"__meta__":{"hash":"sha256:159805d1492f54c3e49c5e5df33eb1a22e349c838004fbb58c34ea0fddfaf57b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardLogin"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"clientId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"clientSecret"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"login"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"clientId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"clientId"}}},{"kind":"Argument","name":{"kind":"Name","value":"clientSecret"},"value":{"kind":"Variable","name":{"kind":"Name","value":"clientSecret"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expiresIn"}},{"kind":"Field","name":{"kind":"Name","value":"tokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"access"}},{"kind":"Field","name":{"kind":"Name","value":"refresh"}}]}}]}}]}}]} as unknown as DocumentNode<DashboardLoginMutation, DashboardLoginMutationVariables>;
export const DashboardRefreshDocument = {"__meta__":{"hash":"sha256:6e6ffef04b148a68d401e34e31d3e2ae4bd187c0d8f916bb601f9673de20fc1c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardRefresh"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"refreshToken"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"refresh"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"refreshToken"},"value":{"kind":"Variable","name":{"kind":"Name","value":"refreshToken"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"expiresIn"}},{"kind":"Field","name":{"kind":"Name","value":"tokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"access"}},{"kind":"Field","name":{"kind":"Name","value":"refresh"}}]}}]}}]}}]} as unknown as DocumentNode<DashboardRefreshMutation, DashboardRefreshMutationVariables>;
export const DashboardSymbolsDocument = {"__meta__":{"hash":"sha256:ccb73c2bf3fb753f9307e89c83d19ccb07ef837bc5e3dce43eda38079cdb68f2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardSymbols"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SymbolOrderBy"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"symbols"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"orderBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"isActive"},"value":{"kind":"BooleanValue","value":true}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"symbol"}},{"kind":"Field","name":{"kind":"Name","value":"minOrderQuantity"}},{"kind":"Field","name":{"kind":"Name","value":"tickSize"}},{"kind":"Field","name":{"kind":"Name","value":"base"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"symbol"}}]}},{"kind":"Field","name":{"kind":"Name","value":"quote"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"symbol"}}]}}]}}]}}]}}]} as unknown as DocumentNode<DashboardSymbolsQuery, DashboardSymbolsQueryVariables>;
export const DashboardPlaceOrderDocument = {"__meta__":{"hash":"sha256:a8ca11fca1ba205577dfd9c78f0f5b3583d8522ac6ead3e3334f3ee4055978ea"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DashboardPlaceOrder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateOrderInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createOrder"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"created"}},{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uid"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<DashboardPlaceOrderMutation, DashboardPlaceOrderMutationVariables>;
export const DashboardOrderDocument = {"__meta__":{"hash":"sha256:b4c0445f5a2d7f2920ffdcb61072e597186aba561a870febf6ac198bacf4226a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DashboardOrder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"uid"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"order"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"uid"},"value":{"kind":"Variable","name":{"kind":"Name","value":"uid"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uid"}},{"kind":"Field","name":{"kind":"Name","value":"symbol"}},{"kind":"Field","name":{"kind":"Name","value":"side"}},{"kind":"Field","name":{"kind":"Name","value":"quantity"}},{"kind":"Field","name":{"kind":"Name","value":"price"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"filledQuantity"}}]}}]}}]} as unknown as DocumentNode<DashboardOrderQuery, DashboardOrderQueryVariables>;
export const DashboardOrderEventsDocument = {"__meta__":{"hash":"sha256:1b111ff4594dec6e1bb87e0309f7c6c85caa5e4a9fd8d657c6f8158de8cbd76b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"DashboardOrderEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orderEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"order"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"uid"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<DashboardOrderEventsSubscription, DashboardOrderEventsSubscriptionVariables>;