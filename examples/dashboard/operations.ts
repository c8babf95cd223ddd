import { graphql } from './generated/index.ts'

/** The dashboard's operations; `npm run codegen` types each from schema.graphql. */
export const LoginDocument = graphql(`
  mutation DashboardLogin($clientId: String!, $clientSecret: String!) {
    login(clientId: $clientId, clientSecret: $clientSecret) {
      expiresIn
      tokens {
        access
        refresh
      }
    }
  }
`)

export const RefreshDocument = graphql(`
  mutation DashboardRefresh($refreshToken: String!) {
    refresh(refreshToken: $refreshToken) {
      status
      expiresIn
      tokens {
        access
        refresh
      }
    }
  }
`)

export const SymbolsDocument = graphql(`
  query DashboardSymbols($limit: Int, $orderBy: SymbolOrderBy) {
    symbols(limit: $limit, orderBy: $orderBy, filter: { isActive: true }) {
      total
      items {
        symbol
        minOrderQuantity
        tickSize
        base {
          symbol
        }
        quote {
          symbol
        }
      }
    }
  }
`)

export const PlaceOrderDocument = graphql(`
  mutation DashboardPlaceOrder($input: CreateOrderInput!) {
    createOrder(input: $input) {
      created
      order {
        uid
        status
      }
    }
  }
`)

export const OrderDocument = graphql(`
  query DashboardOrder($uid: ID!) {
    order(uid: $uid) {
      uid
      symbol
      side
      quantity
      price
      status
      filledQuantity
    }
  }
`)

export const OrderEventsDocument = graphql(`
  subscription DashboardOrderEvents($after: String) {
    orderEvents(after: $after) {
      sequence
      type
      order {
        uid
        status
      }
    }
  }
`)
