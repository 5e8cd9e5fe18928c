/*
 * The firmware network protocols tlbscope uses that gnu-efi 3.0.15 does not
 * declare: the HTTP service binding and HTTP protocol (UEFI 2.x, "EFI HTTP
 * Protocol") and the IPv4 configuration protocol (UEFI 2.x,
 * "EFI_IP4_CONFIG2_PROTOCOL"). Our own type names keep them from clashing
 * with a gnu-efi that declares them.
 *
 * ABI: every member and every notify function the firmware calls carries
 * MSABI (efi/efi_util.h: ms_abi on x86, nothing on aarch64).
 */
#ifndef TLBSCOPE_EFI_NET_PROTOCOLS_H
#define TLBSCOPE_EFI_NET_PROTOCOLS_H

#include "efi/efi_util.h"

#define TLBSCOPE_HTTP_SERVICE_BINDING_GUID                                                         \
    { 0xbdc8e6af, 0xd9bc, 0x4379, { 0xa7, 0x2a, 0xe0, 0xc4, 0xe7, 0x5d, 0xae, 0x1c } }
#define TLBSCOPE_HTTP_PROTOCOL_GUID                                                                \
    { 0x7a59b29b, 0x910b, 0x4171, { 0x82, 0x42, 0xa8, 0x5a, 0x0d, 0xf2, 0x5b, 0x5b } }
#define TLBSCOPE_IP4_CONFIG2_GUID                                                                  \
    { 0x5b446ed1, 0xe30b, 0x4faa, { 0x87, 0x1a, 0x36, 0x54, 0xec, 0xa3, 0x60, 0x80 } }

struct net_service_binding;
struct net_service_binding {
    EFI_STATUS(MSABI *CreateChild)(struct net_service_binding *self, EFI_HANDLE *child);
    EFI_STATUS(MSABI *DestroyChild)(struct net_service_binding *self, EFI_HANDLE child);
};

/* EFI_HTTP_ERROR (UEFI 2.5+; gnu-efi 3.0.15 has no name for it): an HTTP answer of 4xx or 5xx */
#define NET_EFI_HTTP_ERROR EFIERR(35)

/* EFI_HTTP_VERSION, EFI_HTTP_METHOD: the spec's order */
enum { NET_HTTP_VERSION_10 = 0, NET_HTTP_VERSION_11 };
enum { NET_HTTP_GET = 0, NET_HTTP_POST, NET_HTTP_PATCH, NET_HTTP_OPTIONS, NET_HTTP_CONNECT,
       NET_HTTP_HEAD, NET_HTTP_PUT, NET_HTTP_DELETE, NET_HTTP_TRACE };

struct net_httpv4_access_point {
    BOOLEAN UseDefaultAddress;
    EFI_IPv4_ADDRESS LocalAddress;
    EFI_IPv4_ADDRESS LocalSubnet;
    UINT16 LocalPort;
};

struct net_http_config {
    UINT32 HttpVersion;       /* an enum in the spec: four bytes */
    UINT32 TimeOutMillisec;
    BOOLEAN LocalAddressIsIPv6;
    struct net_httpv4_access_point *IPv4Node; /* a union with the IPv6 node: one pointer */
};

struct net_http_request_data {
    UINT32 Method;
    CHAR16 *Url;
};

struct net_http_response_data {
    UINT32 StatusCode; /* EFI_HTTP_STATUS_CODE, an enum, not the number: net_http_status_number() */
};

struct net_http_header {
    CHAR8 *FieldName;
    CHAR8 *FieldValue;
};

struct net_http_message {
    void *Data; /* a request or a response, by direction */
    UINTN HeaderCount;
    struct net_http_header *Headers;
    UINTN BodyLength;
    VOID *Body;
};

struct net_http_token {
    EFI_EVENT Event;
    EFI_STATUS Status;
    struct net_http_message *Message;
};

struct net_http;
struct net_http {
    EFI_STATUS(MSABI *GetModeData)(struct net_http *self, struct net_http_config *config);
    EFI_STATUS(MSABI *Configure)(struct net_http *self, struct net_http_config *config);
    EFI_STATUS(MSABI *Request)(struct net_http *self, struct net_http_token *token);
    EFI_STATUS(MSABI *Cancel)(struct net_http *self, struct net_http_token *token);
    EFI_STATUS(MSABI *Response)(struct net_http *self, struct net_http_token *token);
    EFI_STATUS(MSABI *Poll)(struct net_http *self);
};

/* EFI_IP4_CONFIG2_DATA_TYPE and EFI_IP4_CONFIG2_POLICY */
enum { NET_IP4_CONFIG2_INTERFACE_INFO = 0, NET_IP4_CONFIG2_POLICY = 1 };
enum { NET_IP4_POLICY_STATIC = 0, NET_IP4_POLICY_DHCP = 1 };

struct net_ip4_interface_info {
    CHAR16 Name[32];
    UINT8 IfType;
    UINT32 HwAddressSize;
    EFI_MAC_ADDRESS HwAddress;
    EFI_IPv4_ADDRESS StationAddress;
    EFI_IPv4_ADDRESS SubnetMask;
    UINT32 RouteTableSize;
    VOID *RouteTable;
};

struct net_ip4_config2;
struct net_ip4_config2 {
    EFI_STATUS(MSABI *SetData)(struct net_ip4_config2 *self, UINT32 type, UINTN size, VOID *data);
    EFI_STATUS(MSABI *GetData)(struct net_ip4_config2 *self, UINT32 type, UINTN *size, VOID *data);
    VOID *RegisterDataNotify;
    VOID *UnregisterDataNotify;
};

/* The HTTP status number (200, 503, ...) of an EFI_HTTP_STATUS_CODE; 0 when unknown. */
unsigned net_http_status_number(UINT32 code);

#endif
