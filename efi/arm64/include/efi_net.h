/*
 * The network parts of the aarch64 app's UEFI definitions (efi.h beside it),
 * with the specification's names as gnu-efi has them, for efi/netboot.c: the
 * device path nodes a network boot leaves on the loaded image (UEFI 2.10,
 * 10.3.5 "Messaging Device Path": MAC, IPv4, URI) and the PXE base code
 * protocol that loaded it over TFTP (E.4 "EFI_PXE_BASE_CODE_PROTOCOL"), up to
 * the last member read. Device path nodes are byte-packed.
 */
#ifndef TLBSCOPE_EFI_ARM64_EFI_NET_H
#define TLBSCOPE_EFI_ARM64_EFI_NET_H

typedef struct {
    UINT8 Addr[16];
} EFI_IPv6_ADDRESS;

typedef union {
    UINT32 Addr[4];
    EFI_IPv4_ADDRESS v4;
    EFI_IPv6_ADDRESS v6;
} EFI_IP_ADDRESS;

/* 10.2 the generic node header; 10.3.1 the end node */
typedef struct {
    UINT8 Type;
    UINT8 SubType;
    UINT8 Length[2];
} EFI_DEVICE_PATH;

#define END_DEVICE_PATH_TYPE 0x7f
#define END_ENTIRE_DEVICE_PATH_SUBTYPE 0xff
#define MESSAGING_DEVICE_PATH 0x03
#define MSG_MAC_ADDR_DP 0x0b
#define MSG_IPv4_DP 0x0c
#define MSG_URI_DP 0x18

#define DevicePathType(a) ((a)->Type & 0x7f)
#define DevicePathSubType(a) ((a)->SubType)
#define DevicePathNodeLength(a) ((size_t)(a)->Length[0] | ((size_t)(a)->Length[1] << 8))
#define NextDevicePathNode(a) ((EFI_DEVICE_PATH *)((UINT8 *)(a) + DevicePathNodeLength(a)))
#define IsDevicePathEnd(a) (DevicePathType(a) == END_DEVICE_PATH_TYPE && DevicePathSubType(a) == END_ENTIRE_DEVICE_PATH_SUBTYPE)

#pragma pack(push, 1)
typedef struct {
    EFI_DEVICE_PATH Header;
    EFI_MAC_ADDRESS MacAddress;
    UINT8 IfType;
} MAC_ADDR_DEVICE_PATH;

typedef struct {
    EFI_DEVICE_PATH Header;
    EFI_IPv4_ADDRESS LocalIpAddress;
    EFI_IPv4_ADDRESS RemoteIpAddress;
    UINT16 LocalPort;
    UINT16 RemotePort;
    UINT16 Protocol;
    BOOLEAN StaticIpAddress;
    EFI_IPv4_ADDRESS GatewayIpAddress;
    EFI_IPv4_ADDRESS SubnetMask;
} IPv4_DEVICE_PATH;

typedef struct {
    EFI_DEVICE_PATH Header;
    CHAR8 Uri[1];
} URI_DEVICE_PATH;
#pragma pack(pop)

/* E.4.1: a DHCPv4 packet as the base code keeps it */
typedef struct {
    UINT8 BootpOpcode;
    UINT8 BootpHwType;
    UINT8 BootpHwAddrLen;
    UINT8 BootpGateHops;
    UINT32 BootpIdent;
    UINT16 BootpSeconds;
    UINT16 BootpFlags;
    UINT8 BootpCiAddr[4];
    UINT8 BootpYiAddr[4];
    UINT8 BootpSiAddr[4];
    UINT8 BootpGiAddr[4];
    UINT8 BootpHwAddr[16];
    UINT8 BootpSrvName[64];
    UINT8 BootpBootFile[128];
    UINT32 DhcpMagik;
    UINT8 DhcpOptions[56];
} EFI_PXE_BASE_CODE_DHCPV4_PACKET;

typedef union {
    UINT8 Raw[1472];
    EFI_PXE_BASE_CODE_DHCPV4_PACKET Dhcpv4;
} EFI_PXE_BASE_CODE_PACKET;

/* E.4.1 EFI_PXE_BASE_CODE_MODE, up to ProxyOffer */
typedef struct {
    BOOLEAN Started, Ipv6Available, Ipv6Supported, UsingIpv6, BisSupported, BisDetected, AutoArp, SendGUID;
    BOOLEAN DhcpDiscoverValid, DhcpAckReceived, ProxyOfferReceived, PxeDiscoverValid, PxeReplyReceived;
    BOOLEAN PxeBisReplyReceived, IcmpErrorReceived, TftpErrorReceived, MakeCallbacks;
    UINT8 TTL, ToS;
    EFI_IP_ADDRESS StationIp;
    EFI_IP_ADDRESS SubnetMask;
    EFI_PXE_BASE_CODE_PACKET DhcpDiscover;
    EFI_PXE_BASE_CODE_PACKET DhcpAck;
    EFI_PXE_BASE_CODE_PACKET ProxyOffer;
} EFI_PXE_BASE_CODE_MODE;

/* E.4.1 EFI_PXE_BASE_CODE_TFTP_OPCODE */
#define EFI_PXE_BASE_CODE_TFTP_READ_FILE 2

typedef struct _EFI_PXE_BASE_CODE EFI_PXE_BASE_CODE;
struct _EFI_PXE_BASE_CODE {
    UINT64 Revision;
    EFI_UNUSED_SLOT Start, Stop, Dhcp, Discover;
    EFI_STATUS (*Mtftp)(EFI_PXE_BASE_CODE *self, UINT32 operation, void *buffer, BOOLEAN overwrite,
                        UINT64 *size, UINTN *block_size, EFI_IP_ADDRESS *server, UINT8 *filename,
                        void *info, BOOLEAN dont_use_buffer);
    EFI_UNUSED_SLOT UdpWrite, UdpRead, SetIpFilter, Arp, SetParameters, SetStationIp, SetPackets;
    EFI_PXE_BASE_CODE_MODE *Mode;
};

#endif
